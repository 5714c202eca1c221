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

/** Full-tier sessions holding a query's words, most recent first, weighed per search at most. */
const MAX_SESSIONS = 5_000;

export interface FullTierCandidate extends StoredSession, Holding {
  readonly title: string | null;
  readonly project_path: string | null;
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

/**
 * The documents holding every one of `exact`, from each word's positions; undefined when a word's positions are cut
 * (in more documents than a `tsvector` keeps, or past its last position) or absent (words stored without positions
 * by an earlier version): then any document may hold it.
 */
export function docsHoldingAll(
  exact: readonly string[],
  postings: readonly (readonly [string, readonly number[] | null])[],
): Holding {
  let docs: Set<number> | undefined;
  let complete = true;
  let most = 0;
  for (const word of exact) {
    const positions = postings.filter(([w]) => w === word).flatMap(([, p]) => p ?? []);
    if (positions.length === 0 || positions.length >= MAX_POSITIONS || positions.includes(MAX_POSITION)) {
      complete = false;
      most = Math.max(most, positions.length);
      continue;
    }
    const holding = new Set(positions.map((p) => p - 1));
    docs = docs ? new Set([...docs].filter((d) => holding.has(d))) : holding;
  }
  const count = docs ? docs.size : most;
  return { docs, exact: complete || (exact.length === 1 && docs === undefined), count };
}

/**
 * The full-tier sessions `where` selects that hold every word of `phrases`, each with the documents to read, the
 * most documents holding every word first (unknown counts first of all: they may hold the most), then the most
 * recent; sessions where no document holds them all are left out.
 */
export async function fullTierCandidates(
  sql: Sql,
  where: ReturnType<typeof whereOf>,
  phrases: readonly QueryPhrase[],
): Promise<FullTierCandidate[]> {
  // every word somewhere in the session's words (each may be in another part of them)
  const hasWords = candidateQueries(phrases)
    .map(
      (q) =>
        sql`(s.person_id, s.uid) in (select w.person_id, w.uid from search_words w where w.words @@ ${q}::tsquery)`,
    )
    .reduce((a, b) => sql`${a} and ${b}`);
  const exact = exactWords(phrases);
  // each exact word's positions, and no other word's: marked (weight A) and kept, in PostgreSQL; a row per session
  // and word (a session without one: null), grouped here
  const rows = await sql.begin(async (tx) => {
    // the GIN index finds the sessions holding the words: a plan reading every session's words instead (the planner
    // does not count their unpacking from TOAST) takes many times as long for a word in most sessions
    await tx`set local enable_seqscan = off`;
    return await tx<
      (StoredSession & {
        title: string | null;
        project_path: string | null;
        lexeme: string | null;
        positions: number[] | null;
      })[]
    >`
    with found as (
      select s.person_id, s.uid, s.digest, s.agent, s.session_id, s.project_dir, s.title, s.project_path, s.started_ms
      from ${sql.unsafe(FROM)}
      where ${where} and s.tier = 'full' and ${hasWords}
      order by s.started_ms desc nulls last, s.uid limit ${MAX_SESSIONS})
    select f.person_id, f.uid, f.digest, f.agent, f.session_id, f.project_dir, f.title, f.project_path,
      u.lexeme, u.positions
    from found f
      left join search_words w on w.person_id = f.person_id and w.uid = f.uid
      left join lateral unnest(ts_filter(setweight(w.words, 'A', ${exact}::text[]), '{a}')) u on true
    order by f.started_ms desc nulls last, f.uid`;
  });
  const sessions = new Map<string, StoredSession & { title: string | null; project_path: string | null }>();
  const postingsOf = new Map<string, [string, number[] | null][]>();
  for (const { lexeme, positions, ...s } of rows) {
    const key = `${s.person_id}/${s.uid}`;
    if (!sessions.has(key)) sessions.set(key, s);
    const list = postingsOf.get(key) ?? [];
    postingsOf.set(key, list);
    if (lexeme !== null) list.push([lexeme, positions]);
  }
  const weighed = [...sessions].flatMap(([key, s]) => {
    const postings = postingsOf.get(key) ?? [];
    const held: Holding =
      exact.length === 0 ? { docs: undefined, exact: false, count: 0 } : docsHoldingAll(exact, postings);
    if (held.docs?.size === 0) return [];
    return [{ ...s, ...held, weight: held.docs ? held.docs.size : Number.POSITIVE_INFINITY }];
  });
  // stable: equally weighed sessions stay most recent first
  weighed.sort((a, b) => (a.weight === b.weight ? 0 : a.weight > b.weight ? -1 : 1));
  return weighed.map(({ weight: _w, ...s }) => s);
}
