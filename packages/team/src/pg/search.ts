/**
 * The dashboard's search over pushed sessions, each searched as far as its tier holds text:
 * - `full`: the transcripts' documents (docs.ts), matched as the laptop's FTS5 index matches them (every word or
 *   "quoted phrase", `word*` a prefix, CJK as phrases of characters), so the sessions found are the laptop's;
 * - `metadata`: the title and each call's one-line summary, matched the same way;
 * - `summary`: nothing (no text left the laptop).
 * Hits are ranked by how densely the query's phrases occur in the hit's text (the laptop ranks by bm25, which needs
 * every document's statistics: the order of equally good hits may differ, the sessions found do not).
 */
import { cutSnippet, queryPhrases, type SearchFilter, type SearchHit, toFtsQuery } from '@agentdash/index';
import type { Sql } from './db.js';
import { candidateQuery, phraseCounts } from './docs.js';
import { FROM, type TeamFilter, whereOf } from './session-sql.js';

/** Documents read per search at most: a word in nearly every transcript still answers in bounded time. */
const MAX_CANDIDATES = 20_000;

interface Candidate {
  readonly uid: string;
  readonly title: string | null;
  readonly project_path: string | null;
  readonly kind: SearchHit['kind'];
  readonly call_id: string | null;
  readonly tool: string | null;
  readonly agent_id: string | null;
  readonly ts: string | null;
  readonly body: string;
}

const escapeLike = (w: string) => w.replace(/[\\%_]/g, (c) => `\\${c}`);

export type TeamSearchFilter = TeamFilter & Pick<SearchFilter, 'tool' | 'kind' | 'limit' | 'onePerSession'>;

/** Hits of `query` over the sessions `f` selects, best first (with `onePerSession`, each session's best). */
export async function teamSearch(sql: Sql, query: string, f: TeamSearchFilter): Promise<SearchHit[]> {
  const fts = toFtsQuery(query);
  const phrases = queryPhrases(fts);
  if (phrases.length === 0) return [];
  const limit = f.limit !== undefined && f.limit > 0 ? f.limit : 50;
  const where = whereOf(sql, f);
  const docWhere = [sql`true`];
  if (f.kind) docWhere.push(sql`x.kind = ${f.kind}`);
  if (f.tool) docWhere.push(sql`x.tool = ${f.tool}`);
  const docFilter = docWhere.reduce((a, b) => sql`${a} and ${b}`);
  // every word (a prefix as typed) somewhere in the text: what the phrases need at the least
  const patterns = phrases.flatMap(({ words }) => words.map((w) => `%${escapeLike(w)}%`));
  const metadata = !f.kind || f.kind === 'prompt' || f.kind === 'tool-input';
  const candidates = await sql<Candidate[]>`
    select s.uid, s.title, s.project_path, x.kind, x.call_id, x.tool, x.agent_id, x.ts, x.body
    from ${sql.unsafe(FROM)} join docs x on x.person_id = s.person_id and x.uid = s.uid
    where ${where} and s.tier = 'full' and ${docFilter} and x.words @@ ${candidateQuery(phrases)}::tsquery
    ${
      metadata
        ? sql`
    union all
    select s.uid, s.title, s.project_path, 'prompt', null, null, null, s.started_at, s.title
    from ${sql.unsafe(FROM)}
    where ${where} and s.tier = 'metadata' and ${f.kind === 'tool-input' || f.tool ? sql`false` : sql`true`}
      and s.title ilike all(${patterns}::text[])
    union all
    select s.uid, s.title, s.project_path, 'tool-input', c.call_id, c.tool, c.agent_id, c.ts, c.summary
    from ${sql.unsafe(FROM)} join calls c on c.person_id = s.person_id and c.uid = s.uid
    where ${where} and s.tier = 'metadata' and ${f.kind === 'prompt' ? sql`false` : sql`true`}
      and ${f.tool ? sql`(c.tool = ${f.tool} or c.canonical = ${f.tool})` : sql`true`}
      and c.summary ilike all(${patterns}::text[])`
        : sql``
    }
    limit ${MAX_CANDIDATES}`;
  const scored = candidates.flatMap((c) => {
    const counts = phraseCounts(c.body, phrases);
    if (counts.some((n) => n === 0)) return [];
    const found = counts.reduce((a, b) => a + b, 0);
    // denser is better; negative, as bm25 ranks (lower first)
    return [{ c, rank: -found / Math.sqrt(Math.max(1, c.body.length / 6)) }];
  });
  scored.sort((a, b) => a.rank - b.rank || (a.c.uid < b.c.uid ? -1 : a.c.uid > b.c.uid ? 1 : 0));
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
