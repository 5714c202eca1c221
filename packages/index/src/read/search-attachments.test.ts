/**
 * Search finds the words an attachment holds that the timeline shows (core's `attachmentShows`): a message the person
 * typed while the agent worked, which Claude Code 2.1.x writes only as a `queued_command` attachment. Before, no
 * search found it. Fixture: core's claude-attachments (../shared/wild entire-graph-4, trimmed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from '@agentdash/testing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

const HOME = resolve(repoRoot, 'packages/core/test/fixtures/claude-attachments');
let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-search-attachments-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([HOME]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('attachments in search', () => {
  it("finds the person's queued message and a hook's message, not a hook's bookkeeping", async () => {
    const kinds = async (q: string) => (await index.search(q)).map((h) => [h.kind, h.timestamp]);
    expect(await kinds('"entiredb is checked out"')).toEqual([['note', '2026-07-22T23:58:25.619Z']]);
    expect(await kinds('"link this conversation"')).toEqual([['note', expect.any(String)]]);
    // hook_success's stdout is shown with hidden notes, not searched
    expect(await kinds('systemMessage')).toEqual([]);
  });
});
