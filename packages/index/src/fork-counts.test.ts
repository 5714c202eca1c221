/**
 * A fork's or a resume's row counts its own messages and names its own models, as its calls, cost and time already
 * were: Claude Code copies the earlier conversation into the new session's file (the same uuids and message ids), and
 * the sessions list counted those copied prompts and responses again in MSGS and named their models in MODEL (the
 * corpus's 1.0.128 fork f79d7a1d: 12 messages, one prompt and two responses of them its own; `sessions --model`
 * listed a fork whose own responses were all another model's).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from '@agentdash/testing/shared';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { earlierTurns, forkTurns } from '../test/forks.js';
import { type AgentIndex, openIndex } from './index.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-00000000c0a1';
const FORK = 'bbbbbbbb-0000-4000-8000-00000000c0a2';

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-fork-counts-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const history = (session: string) => earlierTurns(session, 'count');
const fork = () => forkTurns(FORK, 'count', 'claude-haiku-5-5');

const project = () => join(dir, 'home', 'projects', '-home-user-proj-demo');
const countsOf = (id: string) => {
  const s = index.listSessions({}).find((row) => row.id === id);
  return s && { messages: s.messages, prompts: s.prompts, models: s.models };
};
const OWN = { messages: 2, prompts: 1, models: ['claude-haiku-5-5'] };
const WHOLE = { messages: 6, prompts: 3, models: ['claude-opus-5-5', 'claude-haiku-5-5'] };

describe("a fork's row counts its own messages and models", () => {
  it('both read at once: the fork 1 prompt and 1 response of haiku, the original all it holds', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    expect(countsOf(FORK)).toEqual(OWN);
    expect(countsOf(ORIGINAL)).toEqual({ messages: 4, prompts: 2, models: ['claude-opus-5-5'] });
    // The model filter, its menu and the sort by messages read the same counts.
    expect(index.listSessions({ model: 'opus' }).map((s) => s.id)).toEqual([ORIGINAL]);
    expect(index.listSessions({ model: 'haiku' }).map((s) => s.id)).toEqual([FORK]);
    const page = index.pageSessions({}, { sort: 'messages', descending: false });
    expect(page.sessions.map((s) => [s.id, s.messages])).toEqual([
      [FORK, 2],
      [ORIGINAL, 4],
    ]);
  });

  it('the fork read first, its original later: its counts are cut when the original arrives', async () => {
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    expect(countsOf(FORK)).toEqual(WHOLE);
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    await index.refresh([join(dir, 'home')]);
    expect(countsOf(FORK)).toEqual(OWN);
  });

  it('its original deleted and forgotten: the fork holds the whole conversation as its own again', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    rmSync(join(project(), `${ORIGINAL}.jsonl`));
    await index.refresh([join(dir, 'home')]);
    // Kept in the archive: still the original's.
    expect(countsOf(FORK)).toEqual(OWN);
    await index.forgetSession(ORIGINAL);
    expect(countsOf(FORK)).toEqual(WHOLE);
  });

  it('a fork that added nothing: listed with no message of its own, hidden as an empty one in the dashboard', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), [
      ...history(ORIGINAL),
      prompt(basesOf(ORIGINAL)('u9', 'a2', 50), 'More.'),
    ]);
    writeLines(join(project(), `${FORK}.jsonl`), history(FORK));
    await index.refresh([join(dir, 'home')]);
    expect(countsOf(FORK)).toEqual({ messages: 0, prompts: 0, models: [] });
    // its messages are its original's: the dashboard's list and the statistics' session count leave it out
    expect(index.listSessions({ hideEmpty: true }).map((s) => s.id)).toEqual([ORIGINAL]);
    expect(index.stats({}).sessions).toBe(1);
  });
});

describe('chains and copies', () => {
  it('a resume of a resume counts its own turn; the middle one its own', async () => {
    const third = 'cccccccc-0000-4000-8000-00000000c0a3';
    const at = basesOf(third);
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    writeLines(join(project(), `${third}.jsonl`), [
      ...fork().map((line) => line.replaceAll(FORK, third)),
      prompt(at('u4', 'a3', 50), 'And once more.'),
      assistantText(at('a4', 'u4', 52), 'msg_count_4', 'Once more.'),
    ]);
    await index.refresh([join(dir, 'home')]);
    expect([countsOf(ORIGINAL)?.messages, countsOf(FORK)?.messages, countsOf(third)?.messages]).toEqual([4, 2, 2]);
    expect(countsOf(third)?.models).toEqual(['claude-opus-5-5']);
    // What each copied, as the session's notice names it: each prompt and response for the session that owns it, the
    // original's two through the middle one counted once, for the original.
    const keyOf = (id: string) => index.listSessions({}).find((row) => row.id === id)?.key ?? '';
    const copies = (id: string) => index.sessionCopies(keyOf(id)).map((c) => [c.ref, c.prompts, c.responses]);
    expect(copies(third)).toEqual([
      [ORIGINAL, 2, 2],
      [FORK, 1, 1],
    ]);
    expect(copies(FORK)).toEqual([[ORIGINAL, 2, 2]]);
  });

  it('a copy of the same session in another folder keeps its messages whole, as its time', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    // a shorter copy of the same session id (its first turn) in another project folder of the home
    writeLines(
      join(dir, 'home', 'projects', '-home-user-proj-other', `${ORIGINAL}.jsonl`),
      history(ORIGINAL).slice(0, 2),
    );
    await index.refresh([join(dir, 'home')]);
    const copies = index.listSessions({}).map((s) => [s.projectDir.split('/').at(-1), s.messages, s.toolCalls]);
    expect(copies.sort()).toEqual([
      ['-home-user-proj-demo', 4, 0],
      ['-home-user-proj-other', 2, 0],
    ]);
  });
});

const continuation = join(sharedDir, 'corpus/1.0.128/claude-home/projects/-home-user-proj-continuation');
const corpusTitle = existsSync(continuation)
  ? "the corpus's 1.0.128 fork"
  : "the corpus's 1.0.128 fork (skipped: ../shared/corpus is not present)";
describe.skipIf(!existsSync(continuation))(corpusTitle, () => {
  it('f79d7a1d counts its one prompt and two responses, 68c8b9d0 all of its own', async () => {
    await index.refresh([continuation]);
    const byId = new Map(index.listSessions({}).map((s) => [s.id.slice(0, 8), [s.prompts, s.messages]]));
    // Before: [4, 12] for the fork (its three copied prompts and six copied responses counted again).
    expect(byId.get('f79d7a1d')).toEqual([1, 3]);
    expect(byId.get('68c8b9d0')?.[1]).toBe(12);
  });
});
