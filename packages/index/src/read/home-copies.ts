/**
 * The same call in two agent homes of one index (a backup of `~/.claude` indexed beside the live one, a second
 * clone's sample sessions). Each home is a history of its own: its sessions are listed, each with the calls it has
 * there, and a query of one home counts them as that home alone does. A count over both counts each call once, as
 * `usageResponses` counts each API response once: the copies are one piece of work kept twice. The fact counted is
 * the one of the session that owns the call by usage's rule (`ownsBefore`), so one copy never has the calls and
 * another the responses.
 */
import { prepared } from '../schema/statements.js';
import type { SessionFilter } from '../types.js';
import { type Sql, type Store, scopeSql, type Where } from './scope.js';

/**
 * SQL: the session row `a` owns what it shares with the session row `b` before `b` does, the order of
 * `ownsBefore` (usage-queries.ts): the one that started first; copies of one session (the same id, the same start)
 * give it to the newest complete copy, the one that ended last; then by key (`key`: a row's key as SQL, the index's
 * `id`; the team server's uid).
 */
export const ownsBeforeSql = (a: string, b: string, key = (s: string) => `${s}.id`): string => {
  const start = (s: string) => `coalesce(${s}.started_ms, 0)`;
  const end = (s: string) => `coalesce(${s}.ended_ms, 0)`;
  return `(${start(a)} < ${start(b)} OR (${start(a)} = ${start(b)} AND CASE
    WHEN ${a}.session_id = ${b}.session_id AND ${end(a)} <> ${end(b)} THEN ${end(a)} > ${end(b)}
    ELSE ${key(a)} < ${key(b)} END))`;
};

/**
 * Whether an agent's files are in more than one of its homes (two Claude homes, a backup beside the live one): only
 * then can a call have a fact in two. Claude Code beside Codex are two homes, but no call id is in both, so they do
 * not count. Each agent's first and last home by `files_home` (`home` is computed: compared row by row, every stats
 * query read every file's path), a few seeks per agent.
 */
export function severalHomes(store: Store): boolean {
  const next = prepared(
    store.db,
    'SELECT agent, home FROM files INDEXED BY files_home WHERE agent > ? ORDER BY agent, home LIMIT 1',
  );
  const last = prepared(
    store.db,
    'SELECT home FROM files INDEXED BY files_home WHERE agent = ? ORDER BY home DESC LIMIT 1',
    'pluck',
  );
  let agent = '';
  for (;;) {
    const first = next.get(agent) as { agent: string; home: string } | undefined;
    if (first === undefined) return false;
    if (last.get(first.agent) !== first.home) return true;
    agent = first.agent;
  }
}

/**
 * SQL condition on a call's fact (`cf`, with its file `cff`: `CALL_FACTS`): a fact of the same call in another home,
 * in a session `sessions` selects, is counted instead (its session owns the call first). The same call is the same
 * id written by the same agent: another agent's call of that id is another call (hand-made fixtures reuse ids, and
 * agents' id schemes are their own). Undefined when the index
 * holds one home, where no call has two facts (each call has one per home, call-facts.ts).
 *
 * Only ids with more than one fact are looked at (a list made once from the facts), so a home's own calls cost a
 * look-up in that list.
 */
export function countedInAnotherHome(store: Store, sessions: SessionFilter): Sql | undefined {
  if (!severalHomes(store)) return undefined;
  const scoped = scopeSql(sessions);
  return {
    sql: `(cf.tool_use_id IN (SELECT tool_use_id FROM calls WHERE has_result IS NOT NULL
             GROUP BY tool_use_id HAVING COUNT(*) > 1)
           AND EXISTS (SELECT 1 FROM calls oc JOIN files ocf ON ocf.id = oc.file_id
             JOIN sessions os ON os.id = ocf.session_id JOIN sessions ms ON ms.id = cff.session_id
             WHERE oc.tool_use_id = cf.tool_use_id AND oc.has_result IS NOT NULL AND oc.file_id <> cf.file_id
               AND ocf.agent = cff.agent AND ${ownsBeforeSql('os', 'ms')}
               AND os.id IN (SELECT s.id FROM sessions s WHERE ${scoped.sql})))`,
    params: scoped.params,
  };
}

/**
 * `where` (on `CALL_FACTS`) counting each call once across homes: without the facts `countedInAnotherHome` gives to
 * another home's copy. A filter that names one session keeps all of that session's calls (one session is one home).
 */
export function onceAcrossHomes(store: Store, where: Where, sessions: SessionFilter, sessionId?: string): Where {
  if (sessionId !== undefined && sessionId !== '') return where;
  const counted = countedInAnotherHome(store, sessions);
  return counted === undefined ? where : where.add(`NOT ${counted.sql}`, ...counted.params);
}
