/**
 * `show` of a resumed session counts its own responses, the copied ones apart, as it counts tool calls ("1 tool call
 * (+3 copied)"): it said "8 responses" beside the tokens and cost of its own 2 (a review helper, corpus 1.0.128's
 * continuation). Here a 1.0.x-style resume: the earlier session's turn copied without its request id, then its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-show-copied-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIRST = '11111111-1111-4111-8111-111111111111';
const RESUMED = '22222222-2222-4222-8222-222222222222';

/** A prompt and its response in `session`: the records `uuid`-u and `uuid`-a, at minute `minute`. */
function turn(session: string, minute: number, uuid: string, messageId: string, requestId?: string): string[] {
  const base = { sessionId: session, cwd: '/p', version: '1.0.128', isSidechain: false, userType: 'external' };
  const at = (s: number) => `2026-01-05T10:${String(minute).padStart(2, '0')}:0${s}.000Z`;
  const usage = { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return [
    JSON.stringify({
      ...base,
      type: 'user',
      uuid: `${uuid}-u`,
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: 'go' },
    }),
    JSON.stringify({
      ...base,
      type: 'assistant',
      uuid: `${uuid}-a`,
      parentUuid: `${uuid}-u`,
      timestamp: at(5),
      ...(requestId ? { requestId } : {}),
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage,
      },
    }),
  ];
}

it('says "1 response (+1 copied)" for a resume that copied one and made one', async () => {
  const folder = join(dir, 'home', 'projects', '-p');
  writeLines(join(folder, `${FIRST}.jsonl`), turn(FIRST, 0, 'aaaa', 'msg_a', 'req_a'));
  writeLines(join(folder, `${RESUMED}.jsonl`), [
    ...turn(RESUMED, 0, 'aaaa', 'msg_a'),
    ...turn(RESUMED, 5, 'bbbb', 'msg_b', 'req_b'),
  ]);
  const r = await runCli(['show', '22222222', join(dir, 'home')], { home: dir, db: join(dir, 'index.sqlite') });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^counts {3}2 prompts, 1 response \(\+1 copied\), 0 tool calls,/m);
  expect(r.stdout).toMatch(/^copied {3}1 response /m);
});
