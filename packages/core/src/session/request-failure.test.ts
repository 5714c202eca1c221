/**
 * Failed requests and retried attempts (`requestFailureOf`), counted in a session's header by a load and by a stream
 * alike. A session that died on an API error held no errored call: it said 0 errors. Bundled: the recorded 2.1.330
 * API scenarios (a 400, a 500 past its retries, 529s and a 429 survived) and Codex's fatal 429 (a rollout's
 * `task_complete.error`, `exec --json`'s `error` then `turn.failed`); Codex's reconnects as the client writes them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentSays, userSays, writeRollout } from '@agentdash/testing/codex-rollout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeFixtures, codexFixtures } from '../../test/helpers.js';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import type { SessionCounts } from '../model/session.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-request-failure-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Each session under `path` (by its id's first 8 characters): failed and retried, by a load and by a stream. */
async function failuresUnder(path: string): Promise<Record<string, unknown>> {
  const { files } = await discoverAll([path]);
  const out: Record<string, unknown> = {};
  for (const group of groupSessions(files)) {
    const pick = (c: SessionCounts) => [c.failedRequests, c.retriedRequests];
    const loaded = await loadSession(group);
    const stream = await openSessionStream(group);
    const tail = await stream.tail();
    out[group.sessionId.slice(0, 8)] = { load: pick(loaded.counts), stream: pick(tail.counts) };
  }
  return out;
}

describe('failed requests', () => {
  it("counts Claude Code's API-error answers as failed, its retry notes as retried", async () => {
    const got = await failuresUnder(join(claudeFixtures, 'projects/-home-user-proj-api'));
    expect(got).toMatchObject({
      // "This request is rejected": a 400, not retried
      '698d1a6c': { load: [1, 0], stream: [1, 0] },
      // "The server keeps failing": a 500 retried once, then given up
      '4da1eb3d': { load: [1, 1], stream: [1, 1] },
      // "Survive overloaded and rate-limit errors": three attempts failed, the request answered
      '30a34b12': { load: [0, 3], stream: [0, 3] },
    });
  });

  it("counts Codex's fatal error once, in a rollout and in exec's output", async () => {
    expect(Object.values(await failuresUnder(join(codexFixtures, 'api-fatal')))).toEqual([
      { load: [1, 0], stream: [1, 0] },
    ]);
    expect(Object.values(await failuresUnder(join(codexFixtures, 'exec/0.98.0-api-429.exec.jsonl')))).toEqual([
      { load: [1, 0], stream: [1, 0] },
    ]);
  });

  it("counts Codex's reconnects as retried, and the error that ended the turn as failed", async () => {
    const home = join(dir, 'codex-home');
    const reconnect = (s: number, n: number) =>
      [s, 'event_msg', { type: 'stream_error', message: `Reconnecting... ${n}/5` }] as const;
    writeRollout(home, '01a205e8-0000-7000-8000-00000000f001', [
      userSays(1, 'go'),
      reconnect(2, 1),
      reconnect(3, 2),
      agentSays(4, 'done'),
      userSays(5, 'again'),
      [6, 'event_msg', { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion)' }],
      [7, 'event_msg', { type: 'error', message: 'unexpected status 400 Bad Request: input too long' }],
    ]);
    expect(Object.values(await failuresUnder(home))).toEqual([{ load: [1, 3], stream: [1, 3] }]);
    // `exec --json`: "Re-connecting... n/3" as errors, then the fatal one
    const exec = join(dir, 'exec');
    mkdirSync(exec);
    const lines = [
      { type: 'thread.started', thread_id: '01a205e8-0000-7000-8000-00000000f002' },
      { type: 'turn.started' },
      { type: 'error', message: 'Re-connecting... 1/3' },
      { type: 'error', message: 'Re-connecting... 2/3' },
      { type: 'error', message: 'exceeded retry limit, last status: 429 Too Many Requests' },
      { type: 'turn.failed', error: { message: 'exceeded retry limit, last status: 429 Too Many Requests' } },
    ];
    writeFileSync(join(exec, 'run.exec.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(Object.values(await failuresUnder(join(exec, 'run.exec.jsonl')))).toEqual([
      { load: [1, 2], stream: [1, 2] },
    ]);
  });
});
