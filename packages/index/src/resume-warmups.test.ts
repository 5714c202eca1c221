/**
 * Claude Code 2.0.76 resuming a session writes an empty file under a new session id and sends its cache warm-ups
 * under it: a warm-up's file names that id on its first record and the resumed session on its response (corpus
 * 2.0.76, `continuation`). Each resume was listed as a session of its own holding its warm-ups' cost (four in the
 * corpus, 8 responses, $0.067 of the resumed session's). The warm-ups are the resumed session's now, also when the
 * response is appended after an index saw the first line alone (the index keeps a flat agent file's session id).
 */
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-resume-warmups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RESUMED = 'c94da185-74b9-4eff-9c70-d8e4611c1905';
const THROWAWAY = 'fb2e6c33-0251-42e1-bcb2-32394bd1cb8e';

/** Each listed session: its id's head, responses, warm-ups and subagents. */
function listed(index: AgentIndex, path: string) {
  return index
    .listSessions({ paths: [path] })
    .map((s) => `${s.id.slice(0, 8)} responses=${s.usage.responses} warmups=${s.warmups} subagents=${s.subagents}`)
    .sort();
}

describe("a resume's warm-ups (2.0.76) are the resumed session's", () => {
  const project = join(dir, 'home', 'projects', '-home-user-proj-continuation');
  const at = basesOf(RESUMED);
  writeLines(join(project, `${RESUMED}.jsonl`), [
    prompt(at('u1', null, 1), 'Start a session that will be continued.'),
    assistantText(at('a1', 'u1', 2), 'msg_main', 'Started.'),
  ]);
  writeFileSync(join(project, `${THROWAWAY}.jsonl`), '');
  const warmup = join(project, 'agent-a78677d.jsonl');
  const warmupBase = (sessionId: string, uuid: string, parent: string | null, second: number) => ({
    ...basesOf(sessionId)(uuid, parent, second),
    isSidechain: true,
    agentId: 'a78677d',
  });
  const first = prompt(warmupBase(THROWAWAY, 'w1', null, 3), 'Warmup');
  const answer = assistantText(warmupBase(RESUMED, 'w2', 'w1', 4), 'msg_warm', 'Ready.');
  /** The warm-up's response the resumed session's; the resume's empty file a session of nothing. */
  const ADOPTED = ['c94da185 responses=2 warmups=1 subagents=0', 'fb2e6c33 responses=0 warmups=0 subagents=0'];

  it('when the index first reads the whole file', async () => {
    writeLines(warmup, [first, answer]);
    const index = openIndex({ dbPath: join(dir, 'whole.sqlite') });
    try {
      await index.refresh([join(dir, 'home')]);
      expect(listed(index, join(dir, 'home'))).toEqual(ADOPTED);
    } finally {
      index.close();
    }
  });

  it('when the response comes after an index read the first line', async () => {
    writeLines(warmup, [first]);
    const index = openIndex({ dbPath: join(dir, 'live.sqlite') });
    try {
      await index.refresh([join(dir, 'home')]);
      appendFileSync(warmup, `${answer}\n`);
      await index.refresh([join(dir, 'home')]);
      expect(listed(index, join(dir, 'home'))).toEqual(ADOPTED);
    } finally {
      index.close();
    }
  });
});

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus/2.0.76/claude-home');
describe.skipIf(!existsSync(corpus))('the corpus (2.0.76, ../shared)', () => {
  it("lists no session of a resume's warm-ups: their eight responses are the resumed session's", async () => {
    const index = openIndex({ dbPath: join(dir, 'corpus.sqlite') });
    try {
      await index.refresh([corpus]);
      const rows = index.listSessions({ paths: [join(corpus, 'projects', '-home-user-proj-continuation')] });
      const byId = Object.fromEntries(rows.map((s) => [s.id.slice(0, 8), [s.usage.responses, s.warmups]]));
      // c94da185: its own responses and the warm-ups of its first run and of its five resumes (truth.jsonl)
      expect(byId).toMatchObject({ '4267eb7a': [0, 0], '8553d073': [0, 0], '9dad6b5f': [0, 0], fb2e6c33: [0, 0] });
      expect(byId.c94da185?.[1]).toBe(10);
    } finally {
      index.close();
    }
  });
});
