/**
 * A gateway that gives every response one message id (ccusage#1635): two sessions' responses of the same id and
 * different request ids are two responses, not a resume's copy of one. The second was dropped from every report (a
 * review helper: its session said $0.00 and `show` "counted there"). A copy that dropped its request id (Claude Code
 * 1.0.x's resume) is still the original's, whichever session the index read first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeTurn, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-gateway-ids-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SESSIONS = {
  a: '11111111-1111-4111-8111-111111111111',
  b: '22222222-2222-4222-8222-222222222222',
  c: '33333333-3333-4333-8333-333333333333',
};

function writeHome(home: string): void {
  const file = (key: keyof typeof SESSIONS) => join(home, 'projects', `-p-${key}`, `${SESSIONS[key]}.jsonl`);
  const gateway = { messageId: 'msg_gw_1', minute: 0 };
  writeLines(
    file('a'),
    claudeTurn({ ...gateway, session: SESSIONS.a, uuid: 'aaaa', requestId: 'req_A', inputTokens: 1000 }),
  );
  const opus = 'claude-opus-4-5-20251101';
  writeLines(
    file('b'),
    claudeTurn({
      ...gateway,
      session: SESSIONS.b,
      minute: 10,
      uuid: 'bbbb',
      requestId: 'req_B',
      model: opus,
      inputTokens: 2000,
    }),
  );
  // a resume of a: its turn copied without its request id, then one of its own
  writeLines(file('c'), [
    ...claudeTurn({ ...gateway, session: SESSIONS.c, uuid: 'aaaa', inputTokens: 1000 }),
    ...claudeTurn({
      session: SESSIONS.c,
      minute: 20,
      uuid: 'cccc',
      messageId: 'msg_c_1',
      requestId: 'req_C',
      inputTokens: 300,
    }),
  ]);
}

it('counts responses of one id and two requests in two sessions both, whichever was read first', async () => {
  const home = join(dir, 'home');
  writeHome(home);
  const figures = [];
  // read in either order: which session holds the bare id changes, not what is counted
  for (const order of [
    ['a', 'b', 'c'],
    ['c', 'b', 'a'],
  ] as const) {
    const index = openIndex({ dbPath: join(dir, `${order.join('')}.sqlite`) });
    try {
      for (const s of order) await index.refresh([join(home, 'projects', `-p-${s}`)]);
      const responses = index.usageResponses();
      const bySession = Object.fromEntries(index.listSessions().map((s) => [s.id.slice(0, 1), s.usage.responses]));
      figures.push({
        responses: responses.length,
        input: responses.reduce((n, r) => n + r.tokens.inputTokens, 0),
        // the message id as written, a rekeyed response's too (its key `<id>:<request>` is no longer it)
        messageIds: responses.map((r) => r.messageId).sort(),
        bySession,
      });
    } finally {
      index.close();
    }
  }
  // the copy in c of a's response dropped its request id: of an id two requests hold, whose copy it is cannot be
  // told, and it counts as c's own (never lost; a gateway reusing ids under a 1.0.x resume)
  const expected = {
    responses: 4,
    input: 4300,
    messageIds: ['msg_c_1', 'msg_gw_1', 'msg_gw_1', 'msg_gw_1'],
    bySession: { '1': 1, '2': 1, '3': 2 },
  };
  expect(figures).toEqual([expected, expected]);
});

it("counts a resume's copy without its request id once, where no other request holds the id", async () => {
  const home = join(dir, 'resume');
  writeHome(home);
  const index = openIndex({ dbPath: join(dir, 'resume.sqlite') });
  try {
    for (const s of ['c', 'a'] as const) await index.refresh([join(home, 'projects', `-p-${s}`)]);
    const responses = index.usageResponses();
    expect([responses.length, responses.reduce((n, r) => n + r.tokens.inputTokens, 0)]).toEqual([2, 1300]);
  } finally {
    index.close();
  }
});
