/**
 * A call one person pushed in two sessions (a session kept in two agent homes of a laptop, a backup beside the live
 * one, or synced to two devices; a resumed session in one home whose original is in the other): each session lists
 * it with its own calls, and a count over many sessions counts it once, in the session that owns it by the index's
 * rule (`ownsBeforeSql`): the statistics (stats.ts `onceAcrossCopies`) and the list's totals (`copiedTotals`).
 *
 * `call_copies` names the sessions that share a call id with another session of their person and agent, marked
 * when either is stored, so the list's totals look at those sessions' calls alone, not at every call of the filter.
 * A mark outlives what made it (a session replaced or forgotten): it only says where to look, the count reads the
 * calls. No key to the sessions: a mark of another session is written while that one may be being replaced, and a
 * foreign key would wait on its row lock while holding the person's lock below.
 */
import { ownsBeforeSql } from '@agentdash/index';
import type { Sql, TxSql } from './db.js';
import { listFromOf, type TeamFilter, whereOf } from './session-sql.js';

/** Shipped: never edit this text, add a migration. */
export const CALL_COPIES_MIGRATIONS = [
  {
    version: 24,
    name: 'the sessions that share a call with another session of their person, for the sums of the list',
    sql: `
      create index calls_call_id on calls (person_id, call_id);
      create table call_copies (
        person_id bigint not null references people(id) on delete cascade,
        uid text not null,
        primary key (person_id, uid)
      );
      insert into call_copies
        select distinct c.person_id, c.uid from calls c join sessions s using (person_id, uid)
        where exists (select 1 from calls o join sessions os on os.person_id = o.person_id and os.uid = o.uid
          where o.person_id = c.person_id and o.call_id = c.call_id and o.uid <> c.uid and os.agent = s.agent);`,
  },
];

/**
 * The person's lock of copies, taken by whatever marks them (calls here, responses in response-copies.ts): the marks of
 * sessions stored at once are written one transaction after the other, the later reading the earlier's rows.
 */
export async function lockCopies(tx: TxSql, personId: number): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`agentdash-call-copies:${personId}`}, 0))`;
}

/**
 * Marks the session `uid` (stored in `tx`, with `callIds`) and each other session of its person and agent holding one
 * of those ids. Last in the session's transaction, under a lock of the person's: sessions stored at once see each
 * other's calls only once committed, so the second to take the lock reads the first's and marks both. Holding that
 * lock, the statement waits on no one (only statements under it write marks), so the lock closes no cycle.
 */
export async function markCallCopies(
  tx: TxSql,
  personId: number,
  session: { readonly uid: string; readonly agent: string },
  callIds: readonly string[],
): Promise<void> {
  if (callIds.length === 0) return;
  await lockCopies(tx, personId);
  await tx`
    with others as (
      select distinct o.uid from calls o join sessions os on os.person_id = o.person_id and os.uid = o.uid
      where o.person_id = ${personId} and o.call_id = any(${[...new Set(callIds)]}::text[])
        and o.uid <> ${session.uid} and os.agent = ${session.agent})
    insert into call_copies (person_id, uid)
      select ${personId}, uid from (select uid from others union select ${session.uid} from others) x
    on conflict do nothing`;
}

/** Each row is its key and the SQL PostgreSQL compares uids by as JavaScript does: byte by byte. */
const uidKey = (s: string) => `${s}.uid collate "C"`;

/**
 * The calls, errors and expected errors of the sessions `filter` selects that another selected session of theirs
 * counts instead (it owns the call), to take from the sessions' sums: each call counted once, as `stats` counts it
 * (and the laptop's list, index's `sessionTotals`).
 */
export async function copiedTotals(
  sql: Sql,
  filter: TeamFilter,
): Promise<{ toolCalls: number; errors: number; expectedErrors: number }> {
  const from = sql.unsafe(listFromOf(filter));
  const [row] = await sql<{ tool_calls: number; errors: number; expected: number }[]>`
    select count(*)::int as tool_calls, count(*) filter (where c.status = 'error')::int as errors,
      count(*) filter (where c.status = 'error' and c.severity = 'expected')::int as expected
    from ${from} join call_copies m on m.person_id = s.person_id and m.uid = s.uid
      join sessions ms on ms.person_id = s.person_id and ms.uid = s.uid
      join calls c on c.person_id = s.person_id and c.uid = s.uid
    where ${whereOf(sql, filter)} and exists (
      select 1 from calls oc join call_copies om on om.person_id = oc.person_id and om.uid = oc.uid
        join sessions os on os.person_id = oc.person_id and os.uid = oc.uid
      where oc.person_id = c.person_id and oc.call_id = c.call_id and oc.uid <> c.uid and os.agent = ms.agent
        and ${sql.unsafe(ownsBeforeSql('os', 'ms', uidKey))}
        and (os.person_id, os.uid) in (select s.person_id, s.uid from ${from} where ${whereOf(sql, filter)}))`;
  return { toolCalls: row?.tool_calls ?? 0, errors: row?.errors ?? 0, expectedErrors: row?.expected ?? 0 };
}
