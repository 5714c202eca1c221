/**
 * An API response one person pushed in two sessions (one home held at two paths on two devices, or synced to another
 * folder: each copy of a session has its own uid, since a uid hashes the transcript's path; a resumed session on one
 * device whose original is on the other): each session holds it, and the usage counts it once, in the session that
 * owns it by the index's rule (`ownsBeforeSql`), as a laptop's usage counts a response several of its sessions hold
 * (index's `usageResponses`). The laptop gives each response to one of its own sessions before pushing (push/build.ts),
 * so copies across one laptop's sessions never reach the team twice; copies across devices do.
 *
 * Each response carries its key (payload 8): the laptop's response key (`message.id`, with the request id where a
 * gateway reuses ids; scoped by the session where an agent's ids are), as an HMAC with the person's salt, so it names
 * nothing and matches across the person's devices alone. An older laptop sends none: its responses count as before.
 *
 * `response_copies` names the sessions that share a response key with another session of their person, marked when
 * either is stored (as `call_copies` marks calls, under the same lock): the usage looks at those sessions' responses
 * alone, so a team without copies pays one empty join. The sums (`usage_sums`, `usage_rollup`) keep every copy;
 * the usage takes off, at the request, the responses of the sessions it selects that another selected session owns
 * (`copiedResponseSums`): which copy owns a response depends on which sessions the filter selects (a device's
 * filter keeps its copies whole), and a copy erased or forgotten hands it to the next one at once.
 */
import { claudeModelQuery } from '@agentdash/core/base';
import { ownsBeforeSql } from '@agentdash/index';
import type postgres from 'postgres';
import { lockCopies } from './call-copies.js';
import type { Sql, TxSql } from './db.js';
import { listFromOf, type TeamFilter, whereOf } from './session-sql.js';
import { USAGE_SUMS_BOUNDARIES } from './usage-sums.js';

/** Shipped: never edit this text, add a migration. */
export const RESPONSE_COPIES_MIGRATIONS = [
  {
    version: 27,
    name: "each response's key, and the sessions that share one with another session of their person",
    sql: `
      alter table responses add column response_key text;
      create index responses_key on responses (person_id, response_key) where response_key is not null;
      create table response_copies (
        person_id bigint not null references people(id) on delete cascade,
        uid text not null,
        primary key (person_id, uid)
      );`,
  },
];

/**
 * Marks the session `uid` (stored in `tx`, with responses of `keys`) and each other session of its person holding
 * one of those keys. Last in the session's transaction, under the person's lock of copies (`lockCopies`): sessions
 * stored at once see each other's responses only once committed, so the second to take the lock marks both.
 */
export async function markResponseCopies(
  tx: TxSql,
  personId: number,
  uid: string,
  keys: readonly (string | null)[],
): Promise<void> {
  const known = [...new Set(keys.filter((k): k is string => k !== null))];
  if (known.length === 0) return;
  await lockCopies(tx, personId);
  await tx`
    with others as (
      select distinct o.uid from responses o
      where o.person_id = ${personId} and o.response_key = any(${known}::text[]) and o.uid <> ${uid})
    insert into response_copies (person_id, uid)
      select ${personId}, uid from (select uid from others union select ${uid} from others) x
    on conflict do nothing`;
}

/** A statement or a part of one. */
type Fragment =
  | postgres.PendingQuery<postgres.Row[]>
  | postgres.PendingQuery<(postgres.Row & Iterable<postgres.Row>)[]>;

/** Each row is its key and the SQL PostgreSQL compares uids by as JavaScript does: byte by byte. */
const uidKey = (s: string) => `${s}.uid collate "C"`;

/**
 * The responses of the sessions `filter` selects (its session filters: no model or period) that another selected
 * session of their person owns, of the models containing `model`, from `from` to `to` (ms, inclusive), in
 * `usage_sums`' columns with every count negated (no earliest or latest time), per session, UTC quarter-hour, model
 * and band: added to the sums, each response counts once, at its owner's time (a copy inside the period whose owner
 * is outside it counts in neither, as on the laptop).
 */
export function copiedResponseSums(
  sql: Sql,
  filter: TeamFilter,
  model: string | undefined,
  from: number | undefined,
  to: number | undefined,
): Fragment {
  const list = sql.unsafe(listFromOf(filter));
  const where = whereOf(sql, filter);
  const picked = [sql`r.response_key is not null`];
  if (model) picked.push(sql`strpos(lower(r.model), ${claudeModelQuery(model)}) > 0`);
  if (from !== undefined) picked.push(sql`r.ts_ms >= ${from}`);
  if (to !== undefined) picked.push(sql`r.ts_ms <= ${to}`);
  return sql`
    select r.person_id, r.uid, floor(r.ts_ms / 900000::float8)::bigint as quarter, r.model,
      width_bucket(r.input + r.cache_creation + r.cache_read - 1,
        ${sql.unsafe(`'{${USAGE_SUMS_BOUNDARIES.join(',')}}'`)}::bigint[]) as band,
      null::bigint as first_ms, null::bigint as last_ms, -count(*)::bigint as n, -sum(r.input)::bigint as input,
      -sum(r.output)::bigint as output, -sum(r.cache_creation)::bigint as cache_creation,
      -sum(least(r.cache_creation_1h, r.cache_creation))::bigint as cache_creation_1h,
      -sum(r.cache_read)::bigint as cache_read, -sum(r.reasoning)::bigint as reasoning,
      -(count(*) filter (where r.input_unrecorded))::bigint as unrecorded,
      -(count(*) filter (where r.output_unrecorded))::bigint as unrecorded_output
    from ${list} join response_copies m on m.person_id = s.person_id and m.uid = s.uid
      join sessions ms on ms.person_id = s.person_id and ms.uid = s.uid
      join responses r on r.person_id = s.person_id and r.uid = s.uid
    where ${where} and ${picked.reduce((a, b) => sql`${a} and ${b}`)} and exists (
      select 1 from responses o join response_copies om on om.person_id = o.person_id and om.uid = o.uid
        join sessions os on os.person_id = o.person_id and os.uid = o.uid
      where o.person_id = r.person_id and o.response_key = r.response_key and o.uid <> r.uid
        and ${sql.unsafe(ownsBeforeSql('os', 'ms', uidKey))}
        and (os.person_id, os.uid) in (select s.person_id, s.uid from ${list} where ${where}))
    group by 1, 2, 3, 4, 5`;
}
