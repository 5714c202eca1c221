/**
 * The sessions list counts a session's subagents as `show` lists them (core's `loadSession`): subagent files, runs
 * written inside the main file (sidechains, Claude Code ≤ 2.0.27) and subagents kept only as copies in their parent's
 * file (2.1.x `agent_progress`, core's `EmbeddedThreads`, stored as `records.copy_of`). Fixtures: core's
 * claude-progress `without-file` (one subagent, copies only) and the bundled trimmed wild transcripts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const copiesHome = resolve(repoRoot, 'packages/core/test/fixtures/claude-progress/without-file');
const wildHome = resolve(repoRoot, 'packages/cli/test/fixtures/wild/claude-home');

let dir: string;
let index: AgentIndex;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-subagent-count-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([copiesHome, wildHome]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lists as many subagents for each session as loading it finds', async () => {
  const listed = index.listSessions();
  const loaded: Record<string, number> = {};
  for (const s of listed) loaded[s.key] = (await index.loadSession(s.key)).subagents.length;
  expect(Object.fromEntries(listed.map((s) => [s.key, s.subagents]))).toEqual(loaded);
  // The kinds that are not files are among them: a subagent kept as copies, and a sidechain run.
  const byId = new Map(listed.map((s) => [s.id, s]));
  expect({
    copies: byId.get('70c88cff-cb35-404f-a974-2a08bab4e4bc')?.subagents,
    sidechains: byId.get('small')?.subagents,
  }).toEqual({ copies: 1, sidechains: 1 });
  expect(listed.filter((s) => s.subagents > 0).length).toBeGreaterThan(2);
});
