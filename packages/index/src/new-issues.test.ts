/**
 * A cold refresh's new issues are all the issues it stores: a session found without its main file (a subagent folder
 * whose session file is gone) is one of them. `agentdash index` said "10 new problems in the transcripts" and then
 * "14 issues" for ../shared/wild (four sessions without their main file counted in the second only).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from '@agentdash/testing/shared';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-new-issues-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const SESSION = 'aaaaaaaa-0000-4000-8000-0000000000e1';
const ORPHAN = 'bbbbbbbb-0000-4000-8000-0000000000e2';

describe('new issues', () => {
  it('a session without its main file is a new issue when first found, and not again', async () => {
    const project = join(dir, 'home', 'projects', '-home-user-proj-demo');
    const at = basesOf(SESSION);
    writeLines(join(project, `${SESSION}.jsonl`), [
      prompt(at('u1', null, 0), 'Start.'),
      '{"type": "user", "broken',
      assistantText(at('a1', 'u1', 1), 'msg_new_1', 'Started.'),
    ]);
    const sub = { ...basesOf(ORPHAN)('s1', null, 2), isSidechain: true, agentId: 'a1b2c3d' };
    writeLines(join(project, ORPHAN, 'subagents', 'agent-a1b2c3d.jsonl'), [prompt(sub, 'Survey.')]);
    const first = await index.refresh([join(dir, 'home')]);
    // Before: 1 new (the malformed line), 2 stored.
    expect([first.newIssues, first.issues]).toEqual([2, 2]);
    const second = await index.refresh([join(dir, 'home')]);
    expect([second.newIssues, second.issues]).toEqual([0, 2]);
    // Another subagent file of the same session: read, the session recomputed; its missing main file is not new.
    writeLines(join(project, ORPHAN, 'subagents', 'agent-e4f5a6b.jsonl'), [
      prompt({ ...sub, uuid: 's2', agentId: 'e4f5a6b' }, 'More.'),
    ]);
    const third = await index.refresh([join(dir, 'home')]);
    expect([third.newIssues, third.issues]).toEqual([0, 2]);
  });

  const wild = join(sharedDir, 'wild', 'claude-home');
  const title = existsSync(wild)
    ? 'wild: a cold refresh finds as many new issues as it stores'
    : 'wild: a cold refresh finds as many new issues as it stores (skipped: ../shared/wild is not present)';
  it.skipIf(!existsSync(wild))(
    title,
    async () => {
      const report = await index.refresh([wild]);
      // Before: 10 new, 14 stored (four sessions without their main file).
      expect(report.newIssues).toBe(report.issues);
      expect(report.issues).toBeGreaterThan(10);
    },
    60_000,
  );
});
