/**
 * A model filter written as GitHub Copilot writes the model (`claude-sonnet-4.6`, `sonnet-4.6`) finds the sessions and
 * responses of Anthropic's id (`claude-sonnet-4-6`), which every agent's records carry (core's `claudeModelId`): it
 * found none (a review helper, `sessions --model claude-sonnet-4.6` over wild Copilot sessions).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const SESSION = 'dddddddd-0000-4000-8000-00000000a0d1';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-model-filter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('finds claude-sonnet-4-6 by claude-sonnet-4.6 and sonnet-4.6, not by sonnet-4.5', async () => {
  const at = basesOf(SESSION);
  const reply = JSON.parse(assistantText(at('a1', 'u1', 1), 'msg_model_1', 'Done.')) as {
    message: { model: string };
  };
  reply.message.model = 'claude-sonnet-4-6';
  writeLines(join(dir, 'home', 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), [
    prompt(at('u1', null, 0), 'Do it.'),
    JSON.stringify(reply),
  ]);
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([join(dir, 'home')]);
  const found = (model: string) => [index.listSessions({ model }).length, index.usageResponses({ model }).length];
  expect(found('claude-sonnet-4-6')).toEqual([1, 1]);
  expect(found('claude-sonnet-4.6')).toEqual([1, 1]);
  expect(found('sonnet-4.6')).toEqual([1, 1]);
  expect(found('sonnet-4.5')).toEqual([0, 0]);
  index.close();
});
