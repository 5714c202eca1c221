/**
 * A Codex turn aborted while the agent reasoned: its `agent_reasoning` events, held for the response item that never
 * came, are the agent's words once `turn_aborted` is read (a later line). Search found them and gave an empty
 * snippet (a review helper: the wild cpolar-connect-1 rollout, lines 446–450): the snippet reader stopped at the
 * hit's own line, before the line that releases it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userSays, writeRollout } from '@agentdash/testing/codex-rollout';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-aborted-'));
const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it("gives the reasoning of an aborted turn its snippet, as it gives an answered one's", async () => {
  const home = join(dir, 'codex');
  writeRollout(home, '019a0000-0000-7000-8000-00000000ab01', [
    userSays(1, 'Order the commands.'),
    [2, 'event_msg', { type: 'agent_reasoning', text: '**Ordering** I could subclass NaturalOrderGroup for this.' }],
    [3, 'event_msg', { type: 'agent_reasoning', text: '**Checking** the sandbox is read-only here.' }],
    [9, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }],
  ]);
  await index.refresh([home]);
  const hits = await index.search('NaturalOrderGroup', {});
  expect(hits.map((h) => [h.kind, h.snippet.split('\u0001').join('').split('\u0002').join('')])).toEqual([
    ['thinking', expect.stringContaining('subclass NaturalOrderGroup for this')],
  ]);
});
