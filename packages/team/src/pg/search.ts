/**
 * The dashboard's search over pushed sessions, each searched as far as its tier holds text:
 * - `full`: the transcripts' documents (docs.ts), matched as the laptop's FTS5 index matches them (every word or
 *   "quoted phrase", `word*` a prefix, CJK as phrases of characters), so the sessions found are the laptop's;
 * - `metadata`: the title and each call's one-line summary, matched the same way;
 * - `summary`: nothing (no text left the laptop).
 * Hits are ranked by how densely the query's phrases occur in the hit's text (the laptop ranks by bm25, which needs
 * every document's statistics: the order of equally good hits may differ, the sessions found do not). A hit's own time
 * is what `since`/`until` select, as on the laptop (a session that started before `since` is found by its later hits).
 * Full-tier sessions are weighed before any is cut (search-postings.ts): only the documents holding every word are
 * checked, the sessions with the most such documents first, and cutting stops once `limit` sessions have hits.
 *
 * A list of sessions (`onePerSession`, no kind, tool or time) searching plain words (each typed word one token, no
 * prefix: what `toFtsQuery` makes a one-word phrase), or one word alone (a prefix too), needs no document cut to know
 * which sessions hold a document with every word: the positions say so. Those sessions are found from PostgreSQL
 * alone, ranked by how many of their documents hold every word, and their hits come without a snippet:
 * `teamSearchSnippets` cuts the rows a page shows. The sessions list (`mode` 'page') goes further: a session the
 * positions cannot decide (a phrase, a prefix beside other words, a word in more documents than positions are kept)
 * is listed as a candidate, ranked alike, and the page's own cut decides it (a candidate found without a hit there is
 * dropped from the page and remembered, so the next pages and the count leave it out).
 */
import { isWrittenOfTool } from '@agentdash/core';
import { cutSnippet, queryPhrases, type SearchFilter, type SearchHit, toFtsQuery } from '@agentdash/index';
import type { Sql } from './db.js';
import { firstShownDoc } from './doc-starts.js';
import { type DocRow, forgetDocs, phraseCounts, type StoredSession, storedDocs } from './docs.js';
import { type FullTierCandidate, fullTierCandidates } from './search-postings.js';
import { FROM, type TeamFilter, toMs, whereOf } from './session-sql.js';
import { toolCondition } from './tool-filter.js';

/** Metadata-tier titles and summaries read per search at most. */
const MAX_CANDIDATES = 20_000;
/** A page's rows cut at once for their snippets. */
const CUTS_AT_ONCE = 4;

/** Runs `run` on every item, at most `width` at a time. */
async function eachConcurrently<T>(items: readonly T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

interface Candidate {
  readonly uid: string;
  readonly title: string | null;
  readonly project_path: string | null;
  readonly kind: SearchHit['kind'];
  readonly call_id: string | null;
  readonly tool: string | null;
  readonly agent_id: string | null;
  readonly ts: string | null;
  /** The session's start (ms): the time of a text without one of its own, as on the laptop. */
  readonly started_ms: string | number | null;
  readonly body: string;
}

/** A letter, digit, private-use or mark character past ASCII: the tokenizer folds those (or cuts CJK apart). */
const NON_ASCII_WORD = /(?!\p{ASCII})[\p{L}\p{N}\p{Co}\p{M}]/u;

/**
 * What an ASCII text must hold for each phrase of ASCII words: its words in order, separated by anything but letters
 * and digits, each a whole word (the last one's start for a prefix). In a text whose letters and digits are all ASCII
 * the tokens are exactly the runs of letters and digits, lower-cased (any other character only separates them), so
 * such a text holds the phrase if and only if its lower case matches. Undefined when a phrase has another word.
 */
export function asciiPatterns(phrases: readonly QueryPhrase[]): RegExp[] | undefined {
  if (!phrases.every(({ words }) => words.every((w) => /^[a-z0-9]+$/.test(w)))) return undefined;
  return phrases.map(
    ({ words, prefix }) => new RegExp(`(?<![a-z0-9])${words.join('[^a-z0-9]+')}${prefix ? '' : '(?![a-z0-9])'}`),
  );
}

/**
 * Whether `text` holds every phrase, decided by the patterns when its letters and digits are all ASCII, else
 * undefined (the tokens must tell). Spares the tokenizing of most documents a session's positions name.
 */
export function heldByPatterns(text: string, patterns: readonly RegExp[] | undefined): boolean | undefined {
  if (patterns === undefined || NON_ASCII_WORD.test(text)) return undefined;
  const lower = text.toLowerCase();
  return patterns.every((p) => p.test(lower));
}

interface Scored {
  c: Candidate;
  rank: number;
  /** How many documents of its session the hit stands for (found by positions: all of them; else its own). */
  readonly documents?: number;
}

/**
 * A list's hits: one per session, its best, ranked by how many of the session's documents hold every word (most
 * first, as bm25 favours a session that says it often), so sessions found by positions and sessions cut rank alike.
 */
function rankBySession(scored: Scored[]): void {
  const best = new Map<string, Scored & { n: number }>();
  for (const s of scored) {
    const b = best.get(s.c.uid);
    const n = s.documents ?? 1;
    if (!b) best.set(s.c.uid, { ...s, n });
    else {
      b.n += n;
      if (s.rank < b.rank) Object.assign(b, { c: s.c, rank: s.rank });
    }
  }
  scored.length = 0;
  for (const b of best.values()) scored.push({ c: b.c, rank: -b.n });
}

const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

export type TeamSearchFilter = TeamFilter & Pick<SearchFilter, 'tool' | 'kind' | 'limit' | 'onePerSession'>;

type QueryPhrase = ReturnType<typeof queryPhrases>[number];

/** One word alone (a prefix too): a session whose words hold it has a document holding it. */
export function oneWord(phrases: readonly QueryPhrase[]): boolean {
  return phrases.length === 1 && phrases[0]?.words.length === 1;
}

/** Words only: each of the query's phrases is one word, none a prefix (`a-b` and a CJK word are phrases of several). */
export function plainWords(phrases: readonly QueryPhrase[]): boolean {
  return phrases.length > 0 && phrases.every(({ words, prefix }) => words.length === 1 && !prefix);
}

/** Full-tier sessions read back and cut into documents by searches, since the server started (tests count them). */
export const searchReads = { sessions: 0 };

/**
 * How a search finds full-tier sessions: 'cut' cuts every candidate's documents (hits with snippets); 'positions'
 * finds a list's sessions the positions decide without a cut and cuts the others; 'page' (the sessions list, whose
 * page's rows are cut after by `teamSearchSnippets`) lists the others undecided instead of cutting them.
 */
export type SearchMode = 'cut' | 'positions' | 'page';

/** Sessions a query's cut found without a hit (`query`, person, uid, digest), oldest first. */
const refuted = new Set<string>();
/** Refuted sessions remembered at most. */
const MAX_REFUTED = 100_000;
const refutedKey = (fts: string, s: StoredSession) => `${fts}\0${s.person_id}/${s.uid}/${s.digest}`;

/** How many sessions the query's cut refuted (the sessions a search may find and leave out). */
function refutedOf(fts: string): number {
  let n = 0;
  for (const key of refuted) if (key.startsWith(`${fts}\0`)) n++;
  return n;
}

/** Forgets what searches remembered: refuted sessions and kept documents (tests compare answers from nothing). */
export function forgetSearchMemory(): void {
  refuted.clear();
  forgetDocs();
}

function refute(key: string): void {
  refuted.delete(key);
  refuted.add(key);
  if (refuted.size > MAX_REFUTED) refuted.delete(refuted.values().next().value as string);
}

/**
 * The best hit of each of `uids` for `query` (snippet and call included), for the rows a page of a search list shows:
 * only those sessions' documents are cut. A session without a hit has none here (a list in 'page' mode may name one).
 */
export async function teamSearchSnippets(
  sql: Sql,
  query: string,
  uids: readonly string[],
  f: TeamSearchFilter,
  options: TeamSearchOptions = {},
): Promise<SearchHit[]> {
  if (uids.length === 0) return [];
  return await teamSearch(sql, query, { ...f, ids: uids, limit: uids.length, onePerSession: true }, 'cut', options);
}

/** How a search reads: `starts` false reads each row from its transcript's start (`firstShownDoc`). */
export interface TeamSearchOptions {
  readonly starts?: boolean | undefined;
}

/**
 * Hits of `query` over the sessions `f` selects, best first (with `onePerSession`, each session's best; a list's hits
 * found by positions alone, or left undecided in 'page' mode, have no snippet).
 */
export async function teamSearch(
  sql: Sql,
  query: string,
  f: TeamSearchFilter,
  mode: SearchMode = 'positions',
  options: TeamSearchOptions = {},
): Promise<SearchHit[]> {
  const fts = toFtsQuery(query);
  const phrases = queryPhrases(fts);
  if (phrases.length === 0) return [];
  const limit = f.limit !== undefined && f.limit > 0 ? f.limit : 50;
  // the session's span holds its hits: the filter's times select sessions first, then each hit by its own time
  const where = whereOf(sql, f);
  const since = toMs(f.since);
  const until = toMs(f.until);
  // a text without a time of its own (a legacy Codex rollout dates only its header) is its session's start's
  const inTime = ({ ts, started_ms }: Candidate): boolean => {
    if (since === undefined && until === undefined) return true;
    const at = ts !== null ? Date.parse(ts) : started_ms !== null ? Number(started_ms) : Number.NaN;
    return Number.isFinite(at) && (since === undefined || at >= since) && (until === undefined || at <= until);
  };
  // every word (a prefix as typed) somewhere in the text: what the phrases need at the least
  const patterns = phrases.flatMap(({ words }) => words.map((w) => `%${escapeLike(w)}%`));
  const metadata = !f.kind || f.kind === 'prompt' || f.kind === 'tool-input';
  const candidates: Candidate[] = metadata
    ? [
        ...(await sql<Candidate[]>`
    select s.uid, s.title, s.project_path, 'prompt' as kind, null as call_id, null as tool, null as agent_id,
      s.started_at as ts, s.started_ms, s.title as body
    from ${sql.unsafe(FROM)}
    where ${where} and s.tier = 'metadata' and ${f.kind === 'tool-input' || f.tool ? sql`false` : sql`true`}
      and s.title ilike all(${patterns}::text[])
    union all
    select s.uid, s.title, s.project_path, 'tool-input', c.call_id, c.tool, c.agent_id, c.ts, s.started_ms, c.summary
    from ${sql.unsafe(FROM)} join calls c on c.person_id = s.person_id and c.uid = s.uid
    where ${where} and s.tier = 'metadata' and ${f.kind === 'prompt' ? sql`false` : sql`true`}
      and ${f.tool ? toolCondition(sql, f.tool) : sql`true`}
      and c.summary ilike all(${patterns}::text[])
    limit ${MAX_CANDIDATES}`),
      ]
    : [];
  // a list of sessions: sessions the positions decide are found without cutting any document (plain words, or one
  // word alone: a session holding it has a document holding it); in 'page' mode the others are listed undecided
  const listed =
    mode !== 'cut' &&
    f.onePerSession === true &&
    !f.kind &&
    !f.tool &&
    since === undefined &&
    until === undefined &&
    (mode === 'page' || plainWords(phrases) || oneWord(phrases));
  // a page-mode list cuts none of its sessions: their documents are not needed, nor more than the best `limit` of
  // those not already refuted
  const page = listed && mode === 'page';
  const sessions = await fullTierCandidates(sql, where, phrases, {
    docs: !page,
    limit: page ? limit + refutedOf(fts) : undefined,
  });
  const phrasePatterns = asciiPatterns(phrases);
  /** A hit when `c` holds the query; with `first` (a page row's snippet, one hit a session) its rank is not weighed. */
  const scoreOf = (c: Candidate, first = false): Scored | undefined => {
    if (!inTime(c)) return undefined;
    const held = heldByPatterns(c.body, phrasePatterns);
    if (held === false) return undefined;
    // denser is better; negative, as bm25 ranks (lower first)
    const density = (found: number) => -found / Math.sqrt(Math.max(1, c.body.length / 6));
    if (held && first) return { c, rank: density(phrases.length) };
    const counts = phraseCounts(c.body, phrases);
    if (counts.some((n) => n === 0)) return undefined;
    return { c, rank: density(counts.reduce((a, b) => a + b, 0)) };
  };
  const scored = candidates.flatMap((c) => scoreOf(c) ?? []);
  /**
   * Cuts a session's documents and adds its hits; true when it has any. With `first` (a page's snippets: one hit a
   * session), only up to its first hit: the first document holding the query, not the densest.
   */
  const cutHits = async (s: FullTierCandidate, first: boolean): Promise<boolean> => {
    searchReads.sessions += 1;
    const take = (d: DocRow): boolean => {
      if (s.docs?.has(d.seq) === false) return false;
      // core's rule of a tool filter, as the metadata tier's (`toolCondition`) and the laptop's
      if ((f.kind && d.kind !== f.kind) || (f.tool && !isWrittenOfTool(d.tool ?? '', s.agent, f.tool))) return false;
      const at = { uid: s.uid, title: s.title, project_path: s.project_path, started_ms: s.started_ms };
      const hit = scoreOf({ ...d, ...at } as Candidate, first);
      if (hit) scored.push(hit);
      return hit !== undefined;
    };
    let holds = false;
    // the documents the positions rule out are not checked: their text is not made
    const { docs } = s;
    if (first) holds = await firstShownDoc(sql, s, take, docs, options.starts !== false);
    else for (const d of await storedDocs(sql, s)) holds = take(d) || holds;
    if (!holds && !f.kind && !f.tool && since === undefined && until === undefined) refute(refutedKey(fts, s));
    return holds;
  };
  const decides = (s: FullTierCandidate) => mode === 'page' || oneWord(phrases) || (plainWords(phrases) && s.exact);
  const open = listed ? sessions.filter((s) => !refuted.has(refutedKey(fts, s))) : sessions;
  const decided = listed ? open.filter(decides) : [];
  const toCut = listed ? open.filter((s) => !decides(s)) : sessions;
  for (const s of decided.slice(0, limit)) {
    const c = { uid: s.uid, title: s.title, project_path: s.project_path, kind: 'prompt', body: '' } as Candidate;
    const none = { call_id: null, tool: null, agent_id: null, ts: null, started_ms: s.started_ms };
    scored.push({ c: { ...c, ...none }, rank: 0, documents: s.count });
  }
  let found = Math.min(decided.length, limit);
  const firstOnly = mode === 'cut' && f.onePerSession === true;
  if (firstOnly && toCut.length <= limit - found) {
    // a page's snippets: every row is cut, a few at a time, so one row's reads from PostgreSQL overlap another's cut
    await eachConcurrently(toCut, CUTS_AT_ONCE, async (s) => void (await cutHits(s, true)));
  } else {
    for (const s of toCut) {
      if (found >= limit) break;
      if (await cutHits(s, firstOnly)) found++;
    }
  }
  if (listed) rankBySession(scored);
  // a list's equal ranks keep their order (positions' sessions most recent first)
  scored.sort((a, b) => a.rank - b.rank || (listed ? 0 : a.c.uid < b.c.uid ? -1 : a.c.uid > b.c.uid ? 1 : 0));
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const { c, rank } of scored) {
    if (f.onePerSession && seen.has(c.uid)) continue;
    seen.add(c.uid);
    hits.push({
      sessionId: c.uid,
      sessionRef: c.uid,
      projectPath: c.project_path ?? undefined,
      sessionTitle: c.title ?? undefined,
      timestamp: c.ts ?? undefined,
      kind: c.kind,
      tool: c.tool ?? undefined,
      callId: c.call_id ?? undefined,
      agentId: c.agent_id ?? undefined,
      snippet: cutSnippet(c.body, fts),
      file: '',
      line: 0,
      rank,
    });
    if (hits.length >= limit) break;
  }
  return hits;
}
