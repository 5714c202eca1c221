/**
 * A fork's or resume's waterfall: Claude Code 2.x copies the earlier conversation into the new session's file with
 * its first timestamps, and the waterfall drew it all (a review helper: the corpus's 2.1.330 fork 9eccf676, a main
 * lane of 10,358 ms and 6,303 ms of model bars where the session's own wall time is 2,316 ms). It is drawn from
 * the session's own records, as its time counts them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Waterfall } from '@agentdash/core/time';
import { assistantText, basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { SessionsResponse } from './api-types.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-00000000fa11';
const FORK = 'bbbbbbbb-0000-4000-8000-00000000fa12';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-fork-waterfall-'));
let t: TestApp;

/** The earlier conversation: a prompt, a Bash call and its result, an answer (0 to 20 s). */
const history = (session: string) => {
  const at = basesOf(session);
  return [
    prompt(at('u1', null, 0), 'Start.'),
    toolUse(at('a1', 'u1', 5), 'msg_fw_1', 'toolu_fw_1', 'Bash', { command: 'ls' }),
    toolResult(at('r1', 'a1', 8), 'toolu_fw_1', 'a.txt', false),
    assistantText(at('a2', 'r1', 20), 'msg_fw_2', 'Listed.'),
  ];
};

beforeAll(async () => {
  const project = join(dir, 'home', 'projects', '-home-user-proj-demo');
  writeLines(join(project, `${ORIGINAL}.jsonl`), history(ORIGINAL));
  const at = basesOf(FORK);
  writeLines(join(project, `${FORK}.jsonl`), [
    ...history(FORK),
    prompt(at('u3', 'a2', 40), 'Carry on in a fork.'),
    assistantText(at('a3', 'u3', 43), 'msg_fw_3', 'Carried on.'),
  ]);
  t = await appOver([join(dir, 'home')]);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it('draws a fork from its own records: its lane spans its own wall time, the copied call not drawn', async () => {
  const list = await t.json<SessionsResponse>('/api/sessions');
  const fork = list.sessions.find((s) => s.id === FORK);
  expect(fork?.time?.wallMs).toBe(3000);
  const drawn = await t.json<Waterfall>(`/api/sessions/${FORK}/waterfall`);
  const main = drawn.lanes.find((l) => l.key === 'main');
  expect((main?.endMs ?? 0) - (main?.startMs ?? 0)).toBe(3000);
  expect(main?.calls).toEqual([]);
  // the last response it copied, at 20 s; its own records from its prompt at 40 s
  expect(drawn.ownFromMs).toBe(Date.parse('2026-01-02T10:00:20Z'));
  expect(main?.startMs).toBe(Date.parse('2026-01-02T10:00:40Z'));
  // the original's own, whole
  const original = await t.json<Waterfall>(`/api/sessions/${ORIGINAL}/waterfall`);
  expect(original.ownFromMs).toBeUndefined();
  expect(original.lanes.find((l) => l.key === 'main')?.calls.map((c) => c.tool)).toEqual(['Bash']);
});
