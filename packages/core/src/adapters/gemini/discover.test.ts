import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultGeminiHomes, discoverGemini, recognizesGemini } from './discover.js';
import { geminiFixtures, home020, home061 } from './test-helpers.js';

const rel = (path: string) => relative(geminiFixtures, path);

describe('discoverGemini', () => {
  it('finds main and subagent files of the JSONL layout, each with its session', async () => {
    const { files, issues } = await discoverGemini(home061);
    expect(issues).toEqual([]);
    const subagent = files.filter((f) => f.role === 'subagent');
    expect(subagent.map((f) => [rel(f.path), f.sessionId, f.agentId, rel(f.projectDir)])).toEqual([
      [
        '0.61.0/.gemini/tmp/subagent/chats/d79a1ee2-eb13-4740-9475-85886294834c/76200ef5-c0ea-4a38-b542-bca8ed4466a9.jsonl',
        'd79a1ee2-eb13-4740-9475-85886294834c',
        '76200ef5-c0ea-4a38-b542-bca8ed4466a9',
        '0.61.0/.gemini/tmp/subagent',
      ],
    ]);
    const parent = files.find((f) => f.role === 'main' && f.sessionId === subagent[0]?.sessionId);
    expect(rel(parent?.path ?? '')).toBe('0.61.0/.gemini/tmp/subagent/chats/session-2026-11-23T00-29-d79a1ee2.jsonl');
  });

  it('keeps both files that claim one session id (a resumed session and the stub the client left)', async () => {
    const { files } = await discoverGemini(join(home061, 'tmp/multi'));
    expect(files.map((f) => [rel(f.path), f.sessionId])).toEqual([
      [
        '0.61.0/.gemini/tmp/multi/chats/session-2026-11-23T00-27-85ed09f1.jsonl',
        '85ed09f1-51f6-47b8-99d1-7e4d7e9935b6',
      ],
      [
        '0.61.0/.gemini/tmp/multi/chats/session-2026-11-23T00-28-85ed09f1.jsonl',
        '85ed09f1-51f6-47b8-99d1-7e4d7e9935b6@session-2026-11-23T00-28-85ed09f1',
      ],
    ]);
  });

  it('takes a known session id for a main file instead of reading its header, unless it is only the file name', async () => {
    const asked: string[] = [];
    const { files } = await discoverGemini(home061, {
      knownSessionId: (path) => {
        asked.push(path);
        if (path.endsWith('session-2026-11-23T00-29-d79a1ee2.jsonl')) return 'known-session';
        // A file once caught without its header was listed under its name: read its header again.
        return path.endsWith('session-2026-11-23T00-27-85ed09f1.jsonl')
          ? 'session-2026-11-23T00-27-85ed09f1'
          : undefined;
      },
    });
    const idOf = (end: string) => files.find((f) => f.path.endsWith(end))?.sessionId;
    expect(idOf('session-2026-11-23T00-29-d79a1ee2.jsonl')).toBe('known-session');
    expect(idOf('session-2026-11-23T00-27-85ed09f1.jsonl')).toBe('85ed09f1-51f6-47b8-99d1-7e4d7e9935b6');
    // Subagent files take their session from their folder.
    expect(asked.length).toBe(files.filter((f) => f.role === 'main').length);
  });

  it('accepts a home, its tmp folder, a project folder, a chats folder or one file', async () => {
    const all = (await discoverGemini(home020)).files.map((f) => f.path);
    expect(all).toHaveLength(11);
    expect((await discoverGemini(join(home020, 'tmp'))).files.map((f) => f.path)).toEqual(all);
    const one = all[0] ?? '';
    const chats = join(one, '..');
    expect((await discoverGemini(chats)).files.map((f) => f.path)).toEqual([one]);
    expect((await discoverGemini(join(chats, '..'))).files.map((f) => f.path)).toEqual([one]);
    expect((await discoverGemini(one)).files.map((f) => [f.path, f.role])).toEqual([[one, 'main']]);
  });

  it('throws only for a path that does not exist or a file that is not a session', async () => {
    await expect(discoverGemini(join(home020, 'nope'))).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
    await expect(discoverGemini(join(geminiFixtures, 'README.md'))).rejects.toMatchObject({ code: 'NOT_A_TRANSCRIPT' });
  });
});

describe('recognizesGemini and homes', () => {
  it('recognises a Gemini home by its layout, and nothing else', async () => {
    expect(await recognizesGemini(home061)).toBe(true);
    expect(await recognizesGemini(join(home020, 'tmp'))).toBe(true);
    expect(await recognizesGemini(geminiFixtures)).toBe(false);
    expect(await recognizesGemini(join(geminiFixtures, 'missing'))).toBe(false);
  });

  it('uses GEMINI_CLI_HOME, else the home folder', () => {
    expect(defaultGeminiHomes({}, '/h')).toEqual(['/h/.gemini']);
    expect(defaultGeminiHomes({ GEMINI_CLI_HOME: '/x' }, '/h')).toEqual(['/x/.gemini']);
  });
});
