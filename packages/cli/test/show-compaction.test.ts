/**
 * `agentdash show` of a session that Claude Code compacted (2.1 and later): the run that wrote the compaction's
 * summary (`subagents/agent-acompact-<id>.jsonl`) is said as what it is, not as a subagent no call started.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { runCli } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-show-compaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = '5ec0e7a1-0000-4000-8000-00000000c0c0';

it('shows the summarising run of a compaction as a compaction, a subagent no call started as before', async () => {
  const at = basesOf(SESSION);
  const folder = join(dir, 'home', 'projects', '-home-user-proj-demo');
  writeLines(join(folder, `${SESSION}.jsonl`), [
    prompt(at('10000000-0000-4000-8000-000000000001', null, 1), 'Work on the parser.'),
    assistantText(
      at('10000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', 2),
      'msg_1',
      'On it.',
    ),
  ]);
  const thread = (agentId: string, ask: string, second: number) => {
    const base = (uuid: string, parent: string | null, s: number) => ({
      ...at(uuid, parent, s),
      isSidechain: true,
      agentId,
    });
    writeLines(join(folder, SESSION, 'subagents', `agent-${agentId}.jsonl`), [
      prompt(base(`20000000-0000-4000-8000-0000000000${second}`, null, second), ask),
      assistantText(
        base(`30000000-0000-4000-8000-0000000000${second}`, `20000000-0000-4000-8000-0000000000${second}`, second + 1),
        `msg_${second}`,
        'Done.',
      ),
    ]);
  };
  thread('acompact-e1f845', 'Your task is to create a detailed summary of the conversation so far.', 10);
  thread('a2898e3', 'Explore the parser.', 20);
  const shown = await runCli(['show', SESSION, join(dir, 'home')], { home: dir, db: join(dir, 'index.sqlite') });
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toContain(
    'compaction acompact-e1f845 (the request that summarised the conversation for a compaction)',
  );
  expect(shown.stdout).not.toMatch(/subagent +acompact-e1f845/);
  expect(shown.stdout).toMatch(/subagent +a2898e3 \(not linked to a call\)/);
});
