/**
 * Issue 36, item 10: copies of one session in several folders give their calls and their responses to the same copy,
 * the newest complete one; a prompt template's Markdown fences and heading marks are no part of a session's title.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = resolve(repoRoot, 'packages/core/test/fixtures');
const wildCodex = resolve(repoRoot, '../shared/wild-agents/codex');

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-copies-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('copies of one session in several folders', () => {
  it('the complete copy owns both the calls and the responses (the shorter one, in the hash folder, neither)', async () => {
    await index.refresh([join(fixtures, 'copies/gemini')]);
    const folder = (key: string) => key.split('/').at(-2);
    const calls = index.listSessions({}).map((s) => [folder(s.key), s.toolCalls]);
    const responses = new Map<string | undefined, number>();
    for (const r of index.usageResponses({})) {
      const owner = folder(r.context.sessionKey);
      responses.set(owner, (responses.get(owner) ?? 0) + 1);
    }
    // Before: the calls went to `cli` and the six responses both copies hold to the hash folder's copy.
    expect(calls.sort()).toEqual([
      ['7e8989f71805c3147f6be9b7a71de2a156f8face69f9380beeeb8a777414f21c', 0],
      ['cli', 9],
    ]);
    expect([...responses]).toEqual([['cli', 11]]);
  });
});

describe('a prompt template does not title a session with its Markdown', () => {
  it('bundled parking-lot 019af581: the spec-kit `## User Input` and its ```text fence are gone', async () => {
    await index.refresh([join(fixtures, 'templates/codex')]);
    const [session] = index.listSessions({});
    // Before: "## User Input\n\n```text\nI want to build everything …".
    expect(session?.title?.slice(0, 60)).toBe('User Input\n\nI want to build everything that has been discuss');
  });

  const title = existsSync(wildCodex)
    ? 'wild Codex: no title holds a fence or starts with heading marks'
    : 'wild Codex: no title holds a fence or starts with heading marks (skipped: ../shared/wild-agents is not present)';
  it.skipIf(!existsSync(wildCodex))(title, async () => {
    await index.refresh([wildCodex]);
    const titles = index.listSessions({}).map((s) => s.title ?? '');
    // Before: four (019bda8e, 019af581, 019a802a: spec-kit; 019c08f8: `# undefined`), three with fences.
    expect(titles.filter((t) => /```|^\s*#{1,6}\s/m.test(t))).toEqual([]);
    expect(titles.length).toBeGreaterThan(40);
  });
});
