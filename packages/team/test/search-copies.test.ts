/**
 * Claude Code 2.1.x copies each record of a subagent into its parent's file (`agent_progress`). Where the subagent's
 * own file is missing, those copies are its thread on the laptop (core's `EmbeddedThreads`) and the laptop's index
 * searches their text; where the file is there, the copies are skipped. The team server finds what the laptop finds
 * over the same pushed sessions: a pytest run's output a subagent saw (`asyncio_default_fixture_loop_scope=function`:
 * words inside snake_case, found alone and as a phrase), words with diacritics and with digits. Sessions stored
 * before the copies were searched are indexed again (migration 19); the others keep their words.
 * Fixture: core's claude-progress (trimmed from ../shared/wild entire-cli-19), its `without-file` and `with-file`
 * homes made into sessions of their own.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp, type SessionRow } from '@agentdash/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReads } from '../src/pg/doc-starts.js';
import { indexMissingDocs } from '../src/pg/ingest.js';
import { migrate } from '../src/pg/migrations.js';
import { forgetSearchMemory } from '../src/pg/search.js';
import { sessionUid } from '../src/push/hash.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const FIXTURE = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/claude-progress');
const PROJECT = 'projects/-Users-alex-workspace-cli';
const SESSION = '70c88cff-cb35-404f-a974-2a08bab4e4bc';
/** What a subagent's pytest run printed (../shared/wild erk-1), with words past ASCII and with digits. */
const PYTEST = [
  'platform darwin -- Python 3.13.1, pytest-9.0.2, pluggy-1.6.0',
  'plugins: anyio-4.12.1, xdist-3.8.0, asyncio-1.3.0, cov-7.0.0',
  'asyncio: mode=Mode.AUTO, debug=False, asyncio_default_fixture_loop_scope=function',
  'tests/test_café.py::test_naïve_Résumé_ÅNGSTRÖM PASSED',
  'collected 8 items in 0.53s',
].join('\n');

/** A fixture's files with every uuid made another (`digit` first): a session of its own, no copy of another. */
function copyAsNew(from: string, to: string, digit: string, edit: (line: string) => string = (l) => l): string {
  const renamed = (text: string) => text.replace(/\b[0-9a-f]{8}-(?=[0-9a-f]{4}-)/g, (u) => `${digit}${u.slice(1)}`);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  for (const file of walk(from)) {
    const target = join(to, renamed(relative(from, file)));
    mkdirSync(dirname(target), { recursive: true });
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(target, lines.map((l) => (l === '' ? l : edit(renamed(l)))).join('\n'));
  }
  return renamed(SESSION);
}

/** The copied tool result of `toolUseId` (a progress record's) made to say `text`. */
const sayInCopy = (toolUseId: string, text: string) => (line: string) => {
  const record = JSON.parse(line);
  const content = record.data?.message?.message?.content;
  if (record.type !== 'progress' || !Array.isArray(content) || content[0]?.tool_use_id !== toolUseId) return line;
  content[0].content = text;
  return JSON.stringify(record);
};

/** Words and phrases of the copies (and the fixture's own text), each written as a user would type it. */
const QUERIES = [
  'asyncio',
  'fixture',
  'fixture_loop_scope',
  'asyncio_default_fixture_loop_scope',
  '"loop scope"',
  'scope*',
  'café',
  'cafe',
  'naive',
  'résumé',
  'angstrom',
  'python',
  '13',
  'pytest-9.0.2',
  'reviewer',
  'Verdict',
  'Entire',
  'onlyinafiledcopy',
];

pgSuite("team search over subagent records copied into their parent's file (real PostgreSQL)", () => {
  let team: TeamFixture;
  let home: string;
  let index: AgentIndex;
  let local: ReturnType<typeof createApp>;
  let uidOf: Map<string, string>;
  /** The uids of the session saying pytest's output, of the one with its subagent's file, of both copied ones. */
  let sessions: { pytest: string; filed: string; copied: string[] };
  beforeAll(async () => {
    team = await startTeam();
    home = mkdtempSync(join(tmpdir(), 'agentdash-copies-'));
    // the fixture as it is, and as two more sessions: a missing subagent's copies saying pytest's output; a filed
    // subagent's copies saying a word its file does not (the laptop reads its file, not them)
    cpSync(join(FIXTURE, 'without-file'), join(home, 'home'), { recursive: true });
    const pytest = copyAsNew(
      join(FIXTURE, 'without-file'),
      join(home, 'home'),
      'a',
      sayInCopy('toolu_015uaWgxXCC3BudUqu9fgfKs', PYTEST),
    );
    const filed = copyAsNew(
      join(FIXTURE, 'with-file'),
      join(home, 'home'),
      'b',
      sayInCopy('toolu_016j1BQBJqLfXa4vXNCAizAq', 'onlyinafiledcopy'),
    );
    expect(readdirSync(join(home, 'home', PROJECT)).sort()).toEqual(
      [`${pytest}.jsonl`, `${SESSION}.jsonl`, filed, `${filed}.jsonl`].sort(),
    );
    index = openIndex({ dbPath: join(home, 'index.sqlite') });
    await index.refresh([join(home, 'home')]);
    local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
    const report = await team.pushIndex(index, { tier: 'full' });
    expect(report.stored).toBe(3);
    const [{ salt } = { salt: '' }] = await team.db.sql<{ salt: string }[]>`select salt from people where name = 'ann'`;
    uidOf = new Map(index.listSessions().map((s) => [s.id, sessionUid(salt, s.agent, s.key)]));
    const uid = (id: string) => [...uidOf].find(([k]) => k.startsWith(id))?.[1] ?? '';
    sessions = {
      pytest: uid(pytest),
      filed: uid(filed),
      copied: [uid(SESSION), uid(pytest)].sort(),
    };
  });
  afterAll(async () => {
    index?.close();
    await team?.close();
    rmSync(home, { recursive: true, force: true });
  });

  type List = { sessions: (SessionRow & { snippet?: string })[] };
  /** Each query's sessions on both servers, and whether every team row shows its hit (by the starts, or not). */
  const bothFind = async () => {
    const found: [string, string[], string[], boolean, string[]][] = [];
    for (const q of QUERIES) {
      const path = `/api/sessions?q=${encodeURIComponent(q)}&limit=100`;
      const mine = (await (await local.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as List;
      const theirs = (await team.request('GET', path)).json as unknown as List;
      const read = (await team.getVia({ searchStarts: false }, path)).json as unknown as List;
      const shown = (l: List) => l.sessions.map((r) => `${r.id} ${r.snippet?.includes('\u0001') === true}`).sort();
      found.push([
        q,
        theirs.sessions.map((r) => r.id).sort(),
        mine.sessions.map((r) => uidOf.get(r.id) ?? r.id).sort(),
        JSON.stringify(shown(theirs)) === JSON.stringify(shown(read)),
        shown(theirs).filter((s) => s.endsWith('false')),
      ]);
    }
    return found;
  };
  const expected = (found: Awaited<ReturnType<typeof bothFind>>) =>
    found.map(([q, , mine]) => [q, mine, mine, true, []]);

  it("finds the sessions the laptop's search finds, in the copies of a subagent without a file", async () => {
    forgetSearchMemory();
    const lines = startReads.lines;
    const found = await bothFind();
    expect(found).toEqual(expected(found));
    // the rows' hits were read by their documents' stored starts (a copy's: its holder's line)
    expect(startReads.lines).toBeGreaterThan(lines);
    const of = (q: string) => found.find(([query]) => query === q)?.[2];
    // the pytest output is the copies' only: its session alone, by each of its words
    for (const q of ['asyncio', 'fixture_loop_scope', '"loop scope"', 'cafe', 'naive', 'angstrom', '13'])
      expect([q, of(q)]).toEqual([q, [sessions.pytest]]);
    // what only a filed subagent's copy says is not searched on either server
    expect(of('onlyinafiledcopy')).toEqual([]);
    // the fixture's subagent read its reviews: in the copies of two sessions, in its own file in the third
    expect(of('Verdict')).toEqual([...sessions.copied, sessions.filed].sort());
  });

  it('a server that stored the sessions before indexes those with copied threads again (migration 19)', async () => {
    // as a server before migration 19 left them: words without the copies' (here: none), and its starts
    await team.db.sql`update search_words set words = array_to_tsvector('{stale}')`;
    await team.db.sql`delete from migrations where version = 19`;
    expect(await migrate(team.db.sql, team.db.schema)).toEqual([19]);
    const unindexed = await team.db.sql<{ uid: string }[]>`select s.uid from sessions s
      where not exists (select 1 from search_words w where w.person_id = s.person_id and w.uid = s.uid)
      order by s.uid`;
    expect(unindexed.map((r) => r.uid)).toEqual(sessions.copied);
    expect(await team.db.sql`select uid from search_docs where uid in ${team.db.sql(sessions.copied)}`).toEqual([]);
    // the session whose subagent has its file keeps what it had
    expect(await team.db.sql`select words::text from search_words where uid = ${sessions.filed}`.values()).toEqual([
      ["'stale'"],
    ]);
    expect(await indexMissingDocs(team.db.sql)).toBe(2);
    await team.db.sql`delete from search_words where uid = ${sessions.filed}`;
    expect(await indexMissingDocs(team.db.sql)).toBe(1);
    forgetSearchMemory();
    const found = await bothFind();
    expect(found).toEqual(expected(found));
  });
});
