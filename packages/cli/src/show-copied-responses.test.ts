/**
 * `show` of a resumed session counts its own responses, the copied ones apart, as it counts tool calls ("1 tool call
 * (+3 copied)"): it said "8 responses" beside the tokens and cost of its own 2 (a review helper, corpus 1.0.128's
 * continuation). Here a 1.0.x-style resume: the earlier session's turn copied without its request id, then its own.
 * Its prompts too, as the sessions list counts them: "1 prompt (+1 copied)" (it said "2 prompts").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeTurn, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-show-copied-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIRST = '11111111-1111-4111-8111-111111111111';
const RESUMED = '22222222-2222-4222-8222-222222222222';

it('says "1 prompt (+1 copied), 1 response (+1 copied)" for a resume that copied one turn and made one', async () => {
  const folder = join(dir, 'home', 'projects', '-p');
  const old = { version: '1.0.128', model: 'claude-sonnet-4-20250514' };
  const first = { ...old, minute: 0, uuid: 'aaaa', messageId: 'msg_a' };
  writeLines(join(folder, `${FIRST}.jsonl`), claudeTurn({ ...first, session: FIRST, requestId: 'req_a' }));
  writeLines(join(folder, `${RESUMED}.jsonl`), [
    ...claudeTurn({ ...first, session: RESUMED }),
    ...claudeTurn({ ...old, session: RESUMED, minute: 5, uuid: 'bbbb', messageId: 'msg_b', requestId: 'req_b' }),
  ]);
  const r = await runCli(['show', '22222222', join(dir, 'home')], { home: dir, db: join(dir, 'index.sqlite') });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^counts {3}1 prompt \(\+1 copied\), 1 response \(\+1 copied\), 0 tool calls,/m);
  expect(r.stdout).toMatch(/^copied {3}1 response /m);
});
