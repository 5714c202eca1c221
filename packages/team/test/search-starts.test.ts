/**
 * A search page's rows read through the documents' stored starts (`search_docs`, migration 12) answer exactly as
 * rows read from their transcripts' start: the same rows, totals, snippets and calls in the list, and the same hits
 * (kind, tool, agent, time, snippet) for each page's sessions, for many queries at offsets 0 and 50. Then as a
 * database pushed before migration 12 (no starts stored: the upgrade's state): the same answers, the starts made on
 * first need and used by the next search. Real transcripts (the bundled samples home) pushed through the real push
 * client at the full tier, and hand-built ones for what the samples lack: transcripts of several chunks, a hit on a
 * chunk's last line, text beyond ASCII (phrases then counted, not matched by patterns) and a session without a title.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReads } from '../src/pg/doc-starts.js';
import { forgetSearchMemory, teamSearchSnippets } from '../src/pg/search.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, promptsTranscript, sessionsBody } from './wire.js';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The samples alone: with the hand-built sessions below they reach every branch of the search's reading (doc-starts.ts,
 * docs.ts, search.ts) that ../shared/wild reaches, at a fraction of the cost of indexing and pushing it.
 */
const HOMES = [resolve(here, '../../cli/samples/claude-home')];

/** Words, phrases, prefixes and mixes: found by positions alone, decided row by row, in many or few sessions. */
const QUERIES = [
  'error',
  'the',
  'file',
  'test',
  'read',
  'npm test',
  'git status',
  '"the file"',
  '"no such file"',
  '"is not"',
  '"does not exist"',
  'fix*',
  'exit*',
  'import const',
  'function return',
  'todo',
  'error file',
  'bash',
  'zqlate',
  'zqfirst',
  'zqalpha',
  '"zqalpha zqbeta"',
  'zqalpha zqbeta',
  'zqpart',
  'zqout',
  'zqmulti',
  'zqend',
  'café',
];

interface ListBody {
  readonly total: number;
  readonly sessions: { readonly id: string }[];
}

pgSuite('team search: rows read through stored starts answer as rows read from the start', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-starts-'));
    await copyOfIndex(HOMES, join(dir, 'index.sqlite'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh(HOMES);
    const report = await team.pushIndex(index);
    expect(report.stored).toBe(report.sessions);
    // sessions whose transcript is three chunks: a word only in the later ones, one opening a chunk, one closing
    // one, a phrase only in the last (its words apart before), text beyond ASCII with a phrase apart then held, a
    // text of no word, a line that is not JSON; the last without a title
    const sessions = [];
    for (let n = 301; n <= 303; n += 1) {
      const texts = Array.from({ length: 30 }, (_, i) => `prompt ${i} of ${n}`);
      texts[2] = 'zqbeta then zqalpha';
      texts[5] = `file of the café ${n}`;
      texts[6] = `read the file, café ${n}`;
      texts[7] = '...';
      texts[9] = `zqend closes the first chunk ${n}`;
      texts[10] = 'zqfirst opens the second chunk';
      texts[15] = `zqlate in the middle ${n}`;
      texts[25] = `zqlate again, zqalpha zqbeta together`;
      const lines = promptsTranscript(n, texts).split(/(?<=\n)/);
      // one line of two documents (a text and a call), then the call's output (its tool from the call)
      const at = (i: number) => ({
        uuid: `00000000-0000-4000-9000-${String(n * 100 + i).padStart(12, '0')}`,
        timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(),
        sessionId: `5ec7e75a-0000-4000-8000-${String(n).padStart(12, '0')}`,
      });
      const call = { type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: 'echo zqpart' } };
      const said = { type: 'text', text: 'zqmulti says' };
      const message = { role: 'assistant', model: 'claude-sonnet-4-5', content: [said, call] };
      lines[12] = `${JSON.stringify({ type: 'assistant', message, ...at(12) })}\n`;
      const result = { type: 'tool_result', tool_use_id: `toolu_${n}`, content: 'zqout printed' };
      lines[13] = `${JSON.stringify({ type: 'user', message: { role: 'user', content: [result] }, ...at(13) })}\n`;
      lines[22] = '{"type": "user", cut short\n';
      const chunks = chunksOf([lines.slice(0, 10), lines.slice(10, 20), lines.slice(20)].map((l) => l.join('')));
      for (const c of chunks) {
        await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
      }
      sessions.push(fullSession(n, chunks, n === 303 ? null : undefined));
    }
    expect((await team.request('POST', '/api/team/v1/push/sessions', sessionsBody(sessions))).status).toBe(200);
    // the planner's statistics of the tables just filled, which the server took after the first push, of the
    // samples (pg/statistics.ts; the few sessions pushed since change no plan): without them the first searches are
    // planned as over empty tables
    await team.statistics.settled();
  }, 600_000);
  afterAll(async () => {
    index?.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let run = 0;
  /** The answers read from the transcripts' start (the first test's, compared again by the second). */
  let fromStart: unknown[] = [];
  /**
   * Every query's list at offsets 0 and 50 (in the order the dashboard pages), and each page's hits. Each run's URLs
   * are its own (`run`, a parameter the route ignores): the server keeps a search's answer per URL a while.
   */
  const answers = async (on: boolean) => {
    forgetSearchMemory();
    run += 1;
    const out: unknown[] = [];
    for (const q of QUERIES) {
      for (const offset of [0, 50]) {
        const page = `q=${encodeURIComponent(q)}&limit=50&offset=${offset}&run=${run}`;
        // through stored starts: the team server as it runs; from the start: an app built without them
        const res = on
          ? await team.request('GET', `/api/sessions?${page}`)
          : await team.getVia({ searchStarts: false }, `/api/sessions?${page}`);
        expect(res.status).toBe(200);
        const body = res.json as unknown as ListBody;
        out.push({ q, offset, body });
      }
    }
    // the page's hits themselves (the list shows their snippet and call; the kind, tool, agent and time too here)
    for (const entry of out.slice()) {
      const { q, body } = entry as { q: string; body: ListBody };
      forgetSearchMemory();
      const ids = body.sessions.map((s) => s.id);
      out.push({ q, hits: await teamSearchSnippets(team.db.sql, q, ids, {}, { starts: on }) });
    }
    return out;
  };

  it('fresh push: every full-tier session has its starts; the same rows, totals, snippets and hits', async () => {
    const [{ n, starts } = { n: 0, starts: 0 }] = await team.db.sql<{ n: number; starts: number }[]>`
      select count(*)::int as n, count(d.uid)::int as starts
      from sessions s left join search_docs d using (person_id, uid) where s.tier = 'full'`;
    expect(n).toBeGreaterThan(20);
    expect(starts).toBe(n);
    const before = startReads.sessions;
    const located = await answers(true);
    expect(startReads.sessions).toBeGreaterThan(before);
    // the app built without starts reads none of them
    const readsBefore = startReads.sessions;
    fromStart = await answers(false);
    expect(startReads.sessions).toBe(readsBefore);
    expect(located).toEqual(fromStart);
    // the queries find pages: a comparison of empty lists would prove nothing
    const rows = located.flatMap((e) => (e as { body?: ListBody }).body?.sessions ?? []);
    expect(rows.length).toBeGreaterThan(60);
    const late = located.find((e) => (e as { q?: string; body?: ListBody }).q === 'zqlate') as { body: ListBody };
    expect(late.body.total).toBe(3);
  }, 600_000);

  it('as upgraded from version 11 (no starts stored): the same answers, the starts made on first need', async () => {
    expect(fromStart.length).toBeGreaterThan(0);
    await team.db.sql`delete from search_docs`;
    const firstNeed = await answers(true);
    expect(firstNeed).toEqual(fromStart);
    const [{ made } = { made: 0 }] = await team.db.sql<
      { made: number }[]
    >`select count(*)::int as made from search_docs`;
    expect(made).toBeGreaterThan(0);
    const before = startReads.sessions;
    expect(await answers(true)).toEqual(fromStart);
    expect(startReads.sessions).toBeGreaterThan(before);
  }, 600_000);
});
