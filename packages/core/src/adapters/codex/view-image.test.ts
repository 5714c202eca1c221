/**
 * Codex before 0.169 sends the image a view_image call read as a user message of its own, right after the call's
 * output ("attached local image path"): it was a second prompt of the session (blank, with the image), ending the
 * turn there (corpus-agents codex 0.50.0 and 0.98.0, the image scenario: 2 prompts for 1). It is the call's image
 * now: a `tool-image` note the timeline shows with it, no prompt; a message of an image alone elsewhere is a prompt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentSays,
  type RolloutLine,
  userImage,
  userSays,
  viewImageLines,
  writeRollout,
} from '@agentdash/testing/codex-rollout';
import { expect, it } from 'vitest';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { timelineShows } from '../../session/header.js';

async function sessionOf(lines: readonly RolloutLine[]) {
  const home = mkdtempSync(join(tmpdir(), 'codex-view-image-'));
  const file = writeRollout(home, '01a205ea-32e5-7d73-94dd-00000000a9e0', lines);
  const [group] = groupSessions((await discoverAll([file])).files);
  if (group === undefined) throw new Error('no session');
  return loadSession(group);
}

it("keeps the image a view_image call sent as the call's, not as a prompt", async () => {
  const session = await sessionOf(viewImageLines());
  const events = session.events.map((e) =>
    e.kind === 'hidden' ? [e.kind, e.reason, timelineShows({ kind: 'user', hidden: e.reason })] : [e.kind],
  );
  expect(events.filter(([kind]) => kind !== 'side')).toEqual([
    ['prompt'],
    ['assistant'],
    ['hidden', 'tool-image', 'note'],
    ['assistant'],
  ]);
  expect(session.counts.prompts).toBe(1);
  expect(session.calls.map((c) => [c.name, c.result?.isError])).toEqual([['view_image', false]]);
});

it('keeps a message of an image alone as a prompt where no view_image output comes before it', async () => {
  const session = await sessionOf([userSays(1, 'Look'), agentSays(2, 'At what?'), userImage(3), agentSays(4, 'Red.')]);
  expect(session.events.filter((e) => e.kind === 'prompt').length).toBe(2);
});
