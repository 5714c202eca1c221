/**
 * A session that died on an API error, then resumed: Claude Code copies the conversation, its API-error message
 * included, into the resumed session's file. The copied call's error was counted once, in the session it happened
 * in, but the copied failed request in both: the resumed session said "+1 API" and "Has errors" listed it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-00000000fe01';
const RESUMED = 'bbbbbbbb-0000-4000-8000-00000000fe02';

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-failed-copies-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Claude Code's API-error message: a synthetic assistant record the client writes when it gives up. */
const apiError = (line: string) => {
  const record = JSON.parse(line);
  record.isApiErrorMessage = true;
  record.message.model = '<synthetic>';
  return JSON.stringify(record);
};
/** The earlier session: a Bash call that failed, an answer, then a request that failed for good. */
const history = (session: string) => {
  const at = basesOf(session);
  return [
    prompt(at('u1', null, 0), 'Start.'),
    toolUse(at('a1', 'u1', 5), 'msg_fc_1', 'toolu_fc_1', 'Bash', { command: 'false' }),
    toolResult(at('r1', 'a1', 6), 'toolu_fc_1', 'Exit code 1', true),
    assistantText(at('a2', 'r1', 10), 'msg_fc_2', 'It failed.'),
    prompt(at('u2', 'a2', 15), 'Try again.'),
    apiError(assistantText(at('a3', 'u2', 20), 'msg_fc_3', 'API Error: 500 {"type":"error"}')),
  ];
};
const project = () => join(dir, 'home', 'projects', '-home-user-proj-demo');
const writeOriginal = () => writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
const writeResumed = () => {
  const at = basesOf(RESUMED);
  writeLines(join(project(), `${RESUMED}.jsonl`), [
    ...history(RESUMED),
    prompt(at('u3', 'a3', 40), 'Go on.'),
    assistantText(at('a4', 'u3', 43), 'msg_fc_4', 'Done.'),
  ]);
};
const counts = () =>
  Object.fromEntries(index.listSessions({}).map((s) => [s.id.slice(0, 8), [s.errors, s.apiErrors ?? 0]]));

it('counts a copied failed request in the session it happened in, as a copied call', async () => {
  writeOriginal();
  writeResumed();
  await index.refresh([join(dir, 'home')]);
  expect(counts()).toEqual({ aaaaaaaa: [1, 1], bbbbbbbb: [0, 0] });
  expect(index.listSessions({ hasErrors: true }).map((s) => s.id.slice(0, 8))).toEqual(['aaaaaaaa']);
});

it('the resumed session read first: its own until the earlier one arrives; again its own once that is forgotten', async () => {
  writeResumed();
  await index.refresh([join(dir, 'home')]);
  expect(counts()).toEqual({ bbbbbbbb: [1, 1] });
  writeOriginal();
  await index.refresh([join(dir, 'home')]);
  expect(counts()).toEqual({ aaaaaaaa: [1, 1], bbbbbbbb: [0, 0] });
  rmSync(join(project(), `${ORIGINAL}.jsonl`));
  await index.refresh([join(dir, 'home')]);
  // kept in the archive: still the earlier session's
  expect(counts()).toEqual({ aaaaaaaa: [1, 1], bbbbbbbb: [0, 0] });
  await index.forgetSession(ORIGINAL);
  expect(counts()).toEqual({ bbbbbbbb: [1, 1] });
});
