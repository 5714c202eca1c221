import { expect, it } from 'vitest';
import { PushError } from './client.js';
import type { PushReport } from './push.js';
import { pushLoop } from './watch.js';

/** A loop over `rounds` (each a report or a failure), its notes, and how many rounds it ran before it ended. */
async function loop(rounds: readonly (Error | 'ok')[]) {
  const stop = new AbortController();
  const errors: string[] = [];
  let ran = 0;
  let stamps = 0;
  const done = pushLoop({
    once: async () => {
      const round = rounds[ran++];
      if (round === undefined) stop.abort();
      if (round instanceof Error) throw round;
      return {} as PushReport;
    },
    // a change at every look: each round pushes
    stamp: () => String(stamps++),
    intervalMs: 1,
    maxBackoffMs: 1,
    signal: stop.signal,
    onReport: () => {},
    onError: (error) => errors.push((error as Error).message),
  });
  return { done, errors, ran: () => ran };
}

const revoked = () =>
  new PushError('the team server refused the token (unknown or revoked token): ask for a new one', 401);

it('ends on a refused token, rejecting with its error, where it retried for ever', async () => {
  const { done, errors, ran } = await loop(['ok', revoked(), 'ok', 'ok']);
  await expect(done).rejects.toThrow(/refused the token/);
  // not one "push failed (retrying)" note, no round after it
  expect([errors, ran()]).toEqual([[], 2]);
});

it("ends on a viewer's token (403) too", async () => {
  const { done } = await loop([new PushError("this token is lead's viewer token: a push needs a device token", 403)]);
  await expect(done).rejects.toMatchObject({ code: 'TEAM_REFUSED' });
});

it('retries what can pass: a server down, busy or of another payload version', async () => {
  const failures = [
    new PushError('cannot reach the team server', 0),
    new PushError('the team server answered 503', 503),
    new PushError('payload version 8 is not this team server’s (7): upgrade the team server', 409),
  ];
  const { done, errors, ran } = await loop([...failures, 'ok']);
  await expect(done).resolves.toBeUndefined();
  expect([errors.length, ran()]).toEqual([3, 5]);
});
