import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupSessions } from '../../io/discover.js';
import { loadSession } from '../../session/load-session.js';
import { discoverGemini } from './discover.js';
import { projectPathFromHash } from './project-path.js';

const sha = (path: string) => createHash('sha256').update(path).digest('hex');

describe('the project path of a hash-named Gemini folder (0.20 layout)', () => {
  const folder = `/home/ann/.gemini/tmp/${sha('/home/ann/work/app')}`;
  it('is the folder of a path the session names whose SHA-256 is the folder name', () => {
    const messages = [
      { type: 'user', content: 'Fix the build.' },
      {
        type: 'gemini',
        toolCalls: [{ name: 'read_file', args: { absolute_path: '/home/ann/work/app/src/main.ts' } }],
      },
      { type: 'gemini', content: 'Ran `cd /tmp && ls` as well.' },
    ];
    expect(projectPathFromHash(folder, messages)).toBe('/home/ann/work/app');
  });

  it('is found in Windows paths too', () => {
    const windows = `C:\\Users\\ann\\.gemini\\tmp\\${sha('C:\\Users\\ann\\app')}`;
    const messages = [{ type: 'gemini', content: 'Wrote C:\\Users\\ann\\app\\notes.txt.' }];
    expect(projectPathFromHash(windows.replaceAll('\\', '/'), messages)).toBe('C:\\Users\\ann\\app');
  });

  it('looks past an image: base64 (full of /) in its data field, in a tool output, and a huge object', () => {
    const base64 = 'iVBORw0KGgo/AAAANSUhEUgAA+/'.repeat(80_000); // about 2 MB, one run of non-space characters
    const wide = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`k${i}`, i]));
    const messages = [
      { type: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: base64 } }] },
      { type: 'gemini', toolCalls: [{ name: 'read_file', result: [{ output: base64 }], args: wide }] },
      { type: 'gemini', content: 'Saved /home/ann/work/app/shot.png' },
    ];
    expect(projectPathFromHash(folder, messages)).toBe('/home/ann/work/app');
  });

  it("is macOS's /private path when the session names /tmp", () => {
    const tmp = `/Users/ann/.gemini/tmp/${sha('/private/tmp/gemini-test')}`;
    expect(projectPathFromHash(tmp, [{ content: 'Created /tmp/gemini-test/a.txt' }])).toBe('/private/tmp/gemini-test');
  });

  it('is undefined when no path of the session hashes to it, or the folder is not hash-named', () => {
    const messages = [{ type: 'gemini', content: 'Read /home/ann/other/file.ts and /etc/hosts.' }];
    expect(projectPathFromHash(folder, messages)).toBeUndefined();
    expect(projectPathFromHash('/home/ann/.gemini/tmp/app', [{ content: '/home/ann/work/app/a.ts' }])).toBeUndefined();
    expect(projectPathFromHash(folder, [])).toBeUndefined();
  });
});

const here = dirname(fileURLToPath(import.meta.url));
const wild = resolve(here, '../../../../../../shared/wild-agents/gemini/entire-cli-1/tmp');
describe.skipIf(!existsSync(wild))('over ../shared/wild-agents (a real 0.20 home)', () => {
  it("gives each session of entire-cli-1 its project's path, which hashes to its folder's name", async () => {
    const { files } = await discoverGemini(wild);
    const groups = groupSessions(files);
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) {
      const session = await loadSession(group);
      expect(session.projectPath).toBe('/Users/peytonmontei/Documents/entire/devenv/entireio/cli');
      expect(sha(session.projectPath ?? '')).toBe(readdirSync(wild)[0]);
    }
  });
});
