/**
 * Which full-tier sessions a search reads, and which of their documents, before any transcript is cut: each word's
 * positions in `search_words` are the documents holding it (docs.ts), so the documents holding every word of a query
 * are known from PostgreSQL alone. A session none of whose documents holds them all is never cut; the others are
 * read most promising first (the most documents holding every word), so a search that stops at its limit has read
 * the best sessions, not the most recent ones.
 */
import type { queryPhrases } from '@agentdash/index';
import type { Sql } from './db.js';
import { candidateQueries, MAX_POSITION, MAX_POSITIONS, type StoredSession } from './docs.js';
import { FROM, type whereOf } from './session-sql.js';

type QueryPhrase = ReturnType<typeof queryPhrases>[number];

/**
 * Migration 19: the words and document starts of the full-tier sessions whose copied subagent records are a thread
 * (docs.ts, `withCopies`: a subagent of the header with no file among the session's files). Stored before, they held
 * no copy's words, and the documents after a copy were numbered without it: both go, and the server indexes those
 * sessions again from their chunks when it starts (ingest.ts, `indexMissingDocs`). Other sessions' documents are
 * the same with or without copies: theirs stay.
 */
export const COPIED_THREADS_MIGRATION = `
  create temporary table copied_threads on commit drop as
    select s.person_id, s.uid from sessions s
    where s.tier = 'full' and jsonb_typeof(s.body->'header'->'subagents') = 'array'
      and exists (select 1 from jsonb_array_elements(s.body->'header'->'subagents') a
        where a->>'agentId' is not null and not exists (select 1 from files f
          where f.person_id = s.person_id and f.uid = s.uid and f.agent_id = a->>'agentId'));
  delete from search_docs d using copied_threads c where d.person_id = c.person_id and d.uid = c.uid;
  delete from search_words w using copied_threads c where w.person_id = c.person_id and w.uid = c.uid;`;

/** Full-tier sessions holding a query's words, most recent first, weighed per search at most. */
const MAX_SESSIONS = 5_000;

export interface FullTierCandidate extends StoredSession, Holding {
  readonly title: string | null;
  readonly project_path: string | null;
  /** The session's start (ms; a bigint read as text): the time of its texts that have none of their own. */
  readonly started_ms: string | number | null;
}

/** The words a document must hold as they are (a prefix's last word is matched by its start: left to the check). */
export function exactWords(phrases: readonly QueryPhrase[]): string[] {
  return [...new Set(phrases.flatMap(({ words, prefix }) => (prefix ? words.slice(0, -1) : words)))];
}

/** What the positions tell of a session: the documents holding every word, and whether that is all of them. */
export interface Holding {
  /** The documents (`seq`) that may hold every word; undefined when the positions cannot tell (read them all). */
  readonly docs: Set<number> | undefined;
  /**
   * True when the positions alone say that the session has a document holding every word: each word's positions are
   * complete, or there is one word (a session holding it has a document holding it). Then a query of plain words
   * (search.ts) finds the session without cutting any of its documents.
   */
  readonly exact: boolean;
  /** How many documents hold every word, as far as the positions tell (a cut word's: at least its kept positions). */
  readonly count: number;
}

/** What `fullTierCandidates` reads besides the sessions' order. */
export interface CandidateOptions {
  /** Ship each session's documents holding every word (a session to cut reads only those); else `docs` is unset. */
  readonly docs: boolean;
  /** The best sessions kept (after the weighing), when the caller needs no more. */
  readonly limit?: number | undefined;
}

/**
 * The full-tier sessions `where` selects that hold every word of `phrases`, each with the documents to read, the
 * most documents holding every word first (unknown counts first of all: they may hold the most), then the most
 * recent; sessions where no document holds them all are left out.
 *
 * The weighing is one aggregate in PostgreSQL over each session's exact words' positions: a word's positions are
 * complete unless it has none (stored without positions), `MAX_POSITIONS` of them or `MAX_POSITION` (cut); the
 * documents holding every complete word are those named by each one's positions. Without a complete word any document
 * may hold them (the count is then the most positions kept of a word); with every word complete the positions alone
 * say the session holds them.
 */
export async function fullTierCandidates(
  sql: Sql,
  where: ReturnType<typeof whereOf>,
  phrases: readonly QueryPhrase[],
  options: CandidateOptions = { docs: true },
): Promise<FullTierCandidate[]> {
  // every word somewhere in the session's words (each may be in another part of them)
  const hasWords = candidateQueries(phrases)
    .map(
      (q) =>
        sql`(s.person_id, s.uid) in (select w.person_id, w.uid from search_words w where w.words @@ ${q}::tsquery)`,
    )
    .reduce((a, b) => sql`${a} and ${b}`);
  const exact = exactWords(phrases);
  const rows = await sql.begin(async (tx) => {
    // the GIN index finds the sessions holding the words. PostgreSQL's estimate of the rows holding a word is exact
    // (more statistics change nothing), but its cost model does not charge a scan's filter for unpacking each row's
    // words out of TOAST, where nearly all of them live; the bitmap scan never unpacks them. For a word in half the
    // sessions or more, a scan reading every session's words then costs about what the bitmap scan costs (a tie
    // within the planner's 1 %, which the plan that starts first wins) and takes several times as long. No statistic
    // or query shape the team server may set (it is not a superuser) moves that cost, so the index is asked for
    // here, in this transaction only.
    await tx`set local enable_seqscan = off`;
    return await tx<
      (StoredSession & {
        title: string | null;
        project_path: string | null;
        started_ms: string | number | null;
        complete: boolean | null;
        known: boolean | null;
        most: number;
        n: number | null;
        docs: number[] | null;
      })[]
    >`
    with found as (
      select s.person_id, s.uid, s.digest, s.agent, s.session_id, s.project_dir, s.title, s.project_path, s.started_ms
      from ${sql.unsafe(FROM)}
      where ${where} and s.tier = 'full' and ${hasWords}
      order by s.started_ms desc nulls last, s.uid limit ${MAX_SESSIONS}),
    held as (
      select f.*, h.complete, h.known, h.most, h.docs, cardinality(h.docs) as n
      from found f left join lateral (
        -- each exact word's positions (a word is in one part of the session's words), marked and kept
        with p as (
          select u.lexeme, u.positions
          from search_words w, unnest(ts_filter(setweight(w.words, 'A', ${exact}::text[]), '{a}')) u
          where w.person_id = f.person_id and w.uid = f.uid),
        c as (
          select e.word, coalesce(cardinality(p.positions), 0) as n, p.positions,
            coalesce(cardinality(p.positions) between 1 and ${MAX_POSITIONS - 1}
              and not (${MAX_POSITION}::smallint = any(p.positions)), false) as complete
          from unnest(${exact}::text[]) e(word) left join p on p.lexeme = e.word)
        select bool_and(c.complete) as complete, bool_or(c.complete) as known,
          coalesce(max(c.n) filter (where not c.complete), 0)::int as most,
          (select array_agg(d.pos - 1 order by d.pos) from (
            select pos from c, unnest(c.positions) pos where c.complete
            group by pos having count(*) = (select count(*) from c where c.complete)) d) as docs
        from c) h on true)
    select person_id, uid, digest, agent, session_id, project_dir, title, project_path, started_ms, complete, known,
      most, n,
      ${options.docs ? sql`docs` : sql`null::int[] as docs`}
    from held
    where not coalesce(known and docs is null, false)
    order by case when known then n end desc nulls first, started_ms desc nulls last, uid
    ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`;
  });
  return rows.map(({ complete, known, most, n, docs, ...s }) => ({
    ...s,
    docs: known && docs ? new Set(docs) : undefined,
    exact: complete === true || (exact.length === 1 && known !== true),
    count: known ? (n ?? 0) : most,
  }));
}
