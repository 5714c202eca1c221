import { agentSays, type RolloutLine, userImage, userSays, viewImageLines } from '@agentdash/testing/codex-rollout';
import { expect, it } from 'vitest';
import { loadRollout } from '../../../test/load-rollout.js';
import { timelineShows } from '../../session/header.js';

const sessionOf = (lines: readonly RolloutLine[]) => loadRollout('01a205ea-32e5-7d73-94dd-00000000a9e0', lines);

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
