/**
 * A gateway that gives every response one message id (ccusage#1635): two sessions' responses of the same id and
 * different request ids are two responses, not a resume's copy of one. The second was dropped from every report (a
 * review helper: its session said $0.00 and `show` "counted there"). A copy that dropped its request id (Claude Code
 * 1.0.x's resume) is still the original's, whichever session the index read first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLines } from '@agentdash/testing/synthetic';
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

/** A user record and an assistant response of `session` at `minute`, `requestId` absent when undefined. */
function turn(
  session: string,
  minute: number,
  uuid: string,
  messageId: string,
  requestId: string | undefined,
  model: string,
  input: number,
) {
  const at = (s: number) => `2026-01-05T10:${String(minute).padStart(2, '0')}:0${s}.000Z`;
  const base = {
    sessionId: session,
    cwd: `/p/${session.slice(0, 1)}`,
    version: '2.0.50',
    isSidechain: false,
    userType: 'external',
  };
  return [
    JSON.stringify({
      ...base,
      type: 'user',
      uuid: `${uuid}-u`,
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: 'hi' },
    }),
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `${uuid}-a`,
      parentUuid: `${uuid}-u`,
      timestamp: at(5),
      ...(requestId === undefined ? {} : { requestId }),
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: 'hello' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: input, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    }),
  ];
}

function writeHome(home: string): void {
  const file = (key: keyof typeof SESSIONS) => join(home, 'projects', `-p-${key}`, `${SESSIONS[key]}.jsonl`);
  writeLines(file('a'), turn(SESSIONS.a, 0, 'aaaa', 'msg_gw_1', 'req_A', 'claude-sonnet-4-5-20250929', 1000));
  writeLines(file('b'), turn(SESSIONS.b, 10, 'bbbb', 'msg_gw_1', 'req_B', 'claude-opus-4-5-20251101', 2000));
  // a resume of a: its turn copied without its request id, then one of its own
  writeLines(file('c'), [
    ...turn(SESSIONS.c, 0, 'aaaa', 'msg_gw_1', undefined, 'claude-sonnet-4-5-20250929', 1000),
    ...turn(SESSIONS.c, 20, 'cccc', 'msg_c_1', 'req_C', 'claude-sonnet-4-5-20250929', 300),
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
        bySession,
      });
    } finally {
      index.close();
    }
  }
  // the copy in c of a's response dropped its request id: of an id two requests hold, whose copy it is cannot be
  // told, and it counts as c's own (never lost; a gateway reusing ids under a 1.0.x resume)
  const expected = { responses: 4, input: 4300, bySession: { '1': 1, '2': 1, '3': 2 } };
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
