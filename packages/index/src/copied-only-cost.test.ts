/**
 * A session all of whose responses are another's (a resume that added nothing, a file copied beside its original):
 * it billed nothing itself, a known $0, not "unknown" (costUsd null), which means a model without a price or
 * responses that recorded no usage (../shared/wild's ccrider-1 `sample`, a copy of `full`; found by a review helper).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { openIndex } from './index.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-00000000c0a1';
const COPY = 'bbbbbbbb-0000-4000-8000-00000000c0a2';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-copied-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The session's lines, its one response by `model`. */
const lines = (session: string, model: string) => {
  const at = basesOf(session);
  const reply = JSON.parse(assistantText(at('a1', 'u1', 1), 'msg_copied_1', 'Done.')) as {
    message: { model: string };
  };
  reply.message.model = model;
  return [prompt(at('u1', null, 0), 'Do it.'), JSON.stringify(reply)];
};

it.each([
  ['claude-sonnet-4-5', 0, []],
  ['claude-unknown-9', null, ['claude-unknown-9']],
])('a copy that added nothing to a session of %s costs %s', async (model, cost, unpriced) => {
  const project = join(dir, model, 'projects', '-home-user-proj-demo');
  writeLines(join(project, `${ORIGINAL}.jsonl`), lines(ORIGINAL, model));
  writeLines(join(project, `${COPY}.jsonl`), lines(COPY, model));
  const index = openIndex({ dbPath: join(dir, `${model}.sqlite`) });
  await index.refresh([join(dir, model)]);
  const sessions = index.listSessions({}).map((s) => ({
    responses: s.usage.responses,
    costUsd: s.costUsd === null ? null : s.costUsd > 0 ? 'more than 0' : s.costUsd,
    unpricedModels: s.unpricedModels,
    models: Object.keys(s.usageByModel),
  }));
  index.close();
  // one session owns the response; the other holds only its copy
  expect(sessions.sort((a, b) => b.responses - a.responses)).toEqual([
    { responses: 1, costUsd: cost === null ? null : 'more than 0', unpricedModels: unpriced, models: [model] },
    { responses: 0, costUsd: cost, unpricedModels: unpriced, models: [] },
  ]);
});
