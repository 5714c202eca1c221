/**
 * `show --json`'s `usageByModel` counts each response as every usage figure does (`dedupeResponses`): it kept one
 * whole record per message id, the one of the largest output, so a gateway's second request of one id, or a
 * response whose fields' largest values are in different records, gave other totals than the sessions list and
 * usage (a review: 2 responses and 22 input tokens against 3 and 31).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { loadSession } from './load-session.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-by-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reply = (
  base: ReturnType<ReturnType<typeof basesOf>>,
  id: string,
  requestId: string,
  usage: { input: number; output: number; read: number },
) =>
  JSON.stringify({
    parentUuid: base.parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: '/p',
    sessionId: base.sessionId,
    version: '2.1.330',
    uuid: base.uuid,
    timestamp: base.timestamp,
    type: 'assistant',
    requestId,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: `reply ${base.uuid}` }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.read,
      },
    },
  });

it('counts a second request of one message id, and each field at its largest', async () => {
  const session = 'a5a9e000-0000-4000-8000-00000000b0d1';
  const at = basesOf(session);
  writeLines(join(dir, 'projects', 'p', `${session}.jsonl`), [
    prompt(at('u1', null, 0), 'go'),
    // one response in two block records: the input in the first, the output and cache read in the second
    reply(at('a1', 'u1', 1), 'msg_1', 'req_1', { input: 100, output: 5, read: 0 }),
    reply(at('a2', 'a1', 2), 'msg_1', 'req_1', { input: 3, output: 50, read: 500 }),
    // a gateway's second request under the same message id
    reply(at('a3', 'a2', 3), 'msg_1', 'req_2', { input: 7, output: 9, read: 11 }),
  ]);
  const [group] = groupSessions((await discoverAll([dir])).files);
  const usage = (await loadSession(group!)).usageByModel['claude-sonnet-4-5-20250929'];
  expect(usage).toMatchObject({ responses: 2, inputTokens: 107, outputTokens: 59, cacheReadInputTokens: 511 });
});
