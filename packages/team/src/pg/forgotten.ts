/**
 * The sessions people forgot on the team server (`push --forget`), by uid, each its owner's until the owner's
 * `push --unforget`. The laptop keeps a list of its own and leaves them out of its pushes; this record is the server's,
 * so that what a person forgot does not come back from elsewhere:
 * - telemetry naming a forgotten session of its person (an agent still running, an exporter retrying) is dropped and
 *   counted (`forgottenSessionIds`, the OTLP answer's partial success), never stored again at the device's tier;
 * - the uid stays its owner's: another person's push of it is refused as a held uid's is (`UidTakenError`), and so is
 *   the owner's own (from another laptop of theirs, or one that did not upgrade), until the owner unforgets it.
 * A forget of a uid another person holds records nothing (it deletes nothing either): no one reserves another's uid.
 * Forgets and stores of a uid are serialized by its lock (`lockUids`), whoever's they are. The record keeps the session
 * id's keyed hash (`session_hash`, forgotten-key.ts), never the id: a lookup hashes the id it checks.
 */
import { dropUnreferencedChunks } from './chunk-gc.js';
import { lockKeys, retryOnDeadlock, type Sql, type TxSql } from './db.js';
import { FORGOTTEN_KEY_MIGRATION, hashForgottenSessionIds, sessionHasher } from './forgotten-key.js';
import { deleteSessionTelemetry, lockSessionTelemetry } from './telemetry-tier.js';

/** 21. The forgotten sessions: the uid, its owner, the session id its telemetry names (null: none; a hash since 23). */
export const FORGOTTEN_SESSIONS_MIGRATION = `
  create table forgotten_sessions (
    uid text primary key check (uid ~ '^[0-9a-f]{32}$'),
    person_id bigint not null references people(id) on delete cascade,
    session_id text,
    forgotten_at timestamptz not null default now()
  );
  create index forgotten_sessions_session on forgotten_sessions (person_id, session_id) where session_id is not null;`;

/**
 * 22. The sessions each record of a kind not modelled names (`sessionIdsOf`: a forget deletes it; one stored before
 * names none), and the index a forget's and an export's reads of a person's sessions by session id use. The index is
 * built first: the migrations run in one transaction, and the column's exclusive lock on `otel_unknown` (adding it
 * rewrites nothing, the default being constant) is then held only to the commit, not through the index's build.
 */
export const FORGOTTEN_TELEMETRY_MIGRATION = `
  create index sessions_person_session on sessions (person_id, session_id);
  alter table otel_unknown add column session_ids text[] not null default '{}';`;

/** The migrations of forgotten sessions (migrations.ts). */
export const FORGOTTEN_MIGRATIONS = [
  {
    version: 21,
    name: 'the sessions each person forgot: their telemetry dropped, their uids kept theirs until unforgotten',
    sql: FORGOTTEN_SESSIONS_MIGRATION,
  },
  {
    version: 22,
    name: 'the sessions a record of a kind not modelled names, deleted by their forget; sessions by session id',
    sql: FORGOTTEN_TELEMETRY_MIGRATION,
  },
  {
    version: 23,
    name: "the server's settings; a forgotten session's id kept as its keyed hash (HMAC-SHA256), not in clear",
    sql: FORGOTTEN_KEY_MIGRATION,
    run: hashForgottenSessionIds,
    // the ids in clear the update left in dead tuples and index pages
    vacuum: ['forgotten_sessions'],
  },
] as const;

/**
 * A session its own person forgot on the server (`push --forget`): refused (ingest.ts) until they unforget it. `copy`:
 * the uid is another, not held on the server, of a generated session id the person forgot (the same transcripts in
 * another home of theirs, a desktop's `/home/ann` beside a laptop's `/Users/ann`): recorded forgotten with it, so an
 * unforget of either uid, from either laptop, clears both.
 */
export class UidForgottenError extends Error {
  readonly code = 'TEAM_UID_FORGOTTEN';
  constructor(
    readonly uid: string,
    copy = false,
  ) {
    super(
      `session ${uid}: ${copy ? 'a copy of a session ' : ''}forgotten on this team server (push --forget); push --unforget from an upgraded agentdash (any laptop of the person) sends it again`,
    );
  }
}

/** The uid's lock key: one per uid, whoever pushes or forgets it. */
export const uidLockKey = (uid: string) => `agentdash-uid:${uid}`;

/** Takes the locks of `uids` (`lockKeys`): before any telemetry lock of the transaction. */
export const lockUids = (tx: TxSql, uids: readonly string[]) => lockKeys(tx, [...new Set(uids)].map(uidLockKey));

/** A session id's hash as `forgotten_sessions` keeps it (`sessionHasher`). */
export type SessionHash = (sessionId: string) => string;

/**
 * Records `uids` as forgotten by `personId` (their locks held, the person's sessions of them just deleted: `gone`,
 * uid to session id, theirs or the one the laptop named, kept as its hash). A uid another person holds, as a session
 * or forgotten, is left as it is; one forgotten again keeps the session id it was recorded with (a record of none is
 * filled in): a resend naming the summary form of the id does not replace the stored id.
 */
async function recordForgotten(
  tx: TxSql,
  personId: number,
  uids: readonly string[],
  gone: ReadonlyMap<string, string>,
  hash: SessionHash,
): Promise<void> {
  const all = [...new Set(uids)];
  if (all.length === 0) return;
  const hashes = all.map((uid) => {
    const id = gone.get(uid);
    return id === undefined ? null : hash(id);
  });
  await tx`insert into forgotten_sessions (uid, person_id, session_hash)
    select u.uid, ${personId}, u.hash from unnest(${all}::text[], ${hashes}::text[]) as u(uid, hash)
    where not exists (select 1 from sessions s where s.uid = u.uid)
    on conflict (uid) do update set session_hash = excluded.session_hash
      where forgotten_sessions.person_id = excluded.person_id and excluded.session_hash is not null
        and forgotten_sessions.session_hash is null`;
}

/**
 * Uids a forget handles in one transaction: each holds a lock until it commits (its uid's; and their session ids'
 * telemetry locks, `TELEMETRY_LOCKS` at most), and PostgreSQL's lock table holds some thousands in all (64 per connection
 * by default, shared), which a request's 50,000 would exhaust ('out of shared memory'), and a few large forgets at once
 * a batch of many hundreds.
 */
export const FORGET_BATCH = 200;

/**
 * Deletes the person's sessions of `uids` with their rows, their telemetry (but an id another of their stored sessions
 * holds) and the chunks no one else refers to, and records them forgotten (forgotten.ts): their telemetry is not
 * stored again, their uids stay the person's. `FORGET_BATCH` uids at a time, each batch a transaction of its own.
 * Returns how many sessions were deleted. `record` false: a headless run's copy the laptop takes back (its transcript
 * holds the session now, `push/take-back`): deleted alone, not recorded (the person forgot nothing).
 */
export async function forgetSessions(
  sql: Sql,
  uids: readonly string[],
  personId: number,
  options: ForgetOptions = {},
): Promise<number> {
  const all = [...new Set(uids)];
  const hash = await sessionHasher(sql);
  let forgotten = 0;
  for (let i = 0; i < all.length; i += FORGET_BATCH) {
    const batch = all.slice(i, i + FORGET_BATCH);
    // a batch is idempotent: one PostgreSQL aborted to break a deadlock runs again
    const deleted = await retryOnDeadlock(() => sql.begin((tx) => forgetBatch(tx, batch, personId, options, hash)));
    forgotten += deleted.length;
    if (deleted.length > 0) options.committed?.(deleted);
  }
  return forgotten;
}

export interface ForgetOptions {
  /** False: a take-back, deleted and not recorded (default true). */
  readonly record?: boolean | undefined;
  /** Told the uids each batch deleted once it commits: a batch failing later leaves those deleted, to be announced. */
  readonly committed?: ((deleted: readonly string[]) => void) | undefined;
  /**
   * The session id the laptop names for each uid (`push/forget-sessions`): recorded, and its telemetry deleted, for a
   * uid no one holds (never pushed, or gone); a session the person holds is recorded with its stored id.
   */
  readonly sessionIds?: ReadonlyMap<string, string> | undefined;
}

/** `forgetSessions` of a batch of uids, in its transaction: the uids of the sessions it deleted. */
async function forgetBatch(
  tx: TxSql,
  uids: string[],
  personId: number,
  { record = true, sessionIds }: ForgetOptions,
  hash: SessionHash,
): Promise<string[]> {
  await lockUids(tx, uids);
  // Then the telemetry locks of every id this batch may delete the telemetry of: the person's sessions of the uids
  // (stable under their locks) and the ids the laptop names of the others. Taken before any chunk is locked, in a
  // push's order (uid, telemetry, chunks): a push holding one of them and waiting on a chunk this batch would drop
  // goes on first, never waits on this batch in turn (a deadlock). Taken before the telemetry is read: a forget of
  // another uid of the id (or a push storing one) holding them commits first, and is seen; an export waiting on them
  // reads the record once this commits.
  const own = await tx<{ uid: string; session_id: string }[]>`select uid, session_id from sessions
    where person_id = ${personId} and uid = any(${uids}::text[])`;
  const mine = new Set(own.map((r) => r.uid));
  // the ids the laptop names of uids the person does not hold (one another person holds records nothing)
  const claims = sessionIds ? uids.filter((uid) => !mine.has(uid) && (sessionIds.get(uid) ?? '') !== '') : [];
  const claimed = claims.map((uid) => sessionIds?.get(uid) as string);
  await lockSessionTelemetry(tx, personId, [...own.map((r) => r.session_id), ...claimed]);
  const chunks = (
    await tx<{ sha256: string }[]>`select distinct sha256 from file_chunks
      where person_id = ${personId} and uid = any(${uids}::text[])`
  ).map((r) => r.sha256);
  const gone = await tx<{ uid: string; session_id: string }[]>`delete from sessions
    where person_id = ${personId} and uid = any(${uids}::text[]) returning uid, session_id`;
  await dropUnreferencedChunks(tx, chunks);
  const named = new Map(gone.map((r) => [r.uid, r.session_id]));
  if (claims.length > 0) {
    // held: stored (anyone's), or another person's forgotten (theirs until they unforget it)
    const held = new Set(
      (
        await tx<{ uid: string }[]>`select uid from sessions where uid = any(${claims}::text[])
          union select uid from forgotten_sessions where uid = any(${claims}::text[]) and person_id <> ${personId}`
      ).map((r) => r.uid),
    );
    for (const uid of claims) if (!held.has(uid)) named.set(uid, sessionIds?.get(uid) as string);
  }
  // the telemetry of ids no other stored session of the person holds (a headless run's copy taken back leaves its
  // transcript's)
  const ids = [...new Set(named.values())];
  const kept = new Set(
    (
      await tx<{ session_id: string }[]>`select distinct session_id from sessions
        where person_id = ${personId} and session_id = any(${ids}::text[])`
    ).map((r) => r.session_id),
  );
  await deleteSessionTelemetry(
    tx,
    personId,
    ids.filter((id) => !kept.has(id)),
  );
  if (record) await recordForgotten(tx, personId, uids, named, hash);
  return gone.map((r) => r.uid);
}

/**
 * Clears the person's records of `uids` (`push --unforget`) and their other records of the same session ids, under
 * the locks of `uids` (`FORGET_BATCH` at a time): a forget of one under way has written its record by then. Returns
 * the uids of `uids` that were forgotten.
 */
export async function unforgetSessions(sql: Sql, personId: number, uids: readonly string[]): Promise<string[]> {
  const all = [...new Set(uids)];
  const cleared: string[] = [];
  for (let i = 0; i < all.length; i += FORGET_BATCH) {
    const batch = all.slice(i, i + FORGET_BATCH);
    const rows = await sql.begin(async (tx) => {
      await lockUids(tx, batch);
      // and the person's other records of their session ids (a run's copy forgotten with its transcript): the ids'
      // telemetry is stored again. Those uids are not locked: a forget or push of one reads this delete or precedes it.
      // Each half of the union by an index (the uid's key, the person's hashes): an `or` of the two read every record
      // of the person for each batch, quadratic in a large unforget.
      return await tx<{ uid: string }[]>`delete from forgotten_sessions where uid in (
          select uid from forgotten_sessions where person_id = ${personId} and uid = any(${batch}::text[])
          union
          select f.uid from forgotten_sessions h join forgotten_sessions f
            on f.person_id = h.person_id and f.session_hash = h.session_hash
          where h.person_id = ${personId} and h.uid = any(${batch}::text[]))
        returning uid`;
    });
    cleared.push(...rows.map((r) => r.uid).filter((uid) => batch.includes(uid)));
  }
  return cleared.sort();
}

/**
 * Of `sessionIds`, those the person forgot (a record of their hash) and holds no stored session of: their telemetry
 * is dropped. Read under the sessions' telemetry locks (`pushedTiers`), which a forget takes too: an export either
 * lands before the forget (which deletes it) or reads its record.
 */
export async function forgottenSessionIds(
  tx: TxSql,
  personId: number,
  sessionIds: readonly string[],
  hash: SessionHash,
): Promise<Set<string>> {
  const ids = [...new Set(sessionIds)].filter((id) => id !== '');
  if (ids.length === 0) return new Set();
  const rows = await tx<
    { id: string }[]
  >`select q.id from unnest(${ids}::text[], ${ids.map(hash)}::text[]) as q(id, hash)
    where exists (select 1 from forgotten_sessions f where f.person_id = ${personId} and f.session_hash = q.hash)
      and not exists (select 1 from sessions s where s.person_id = ${personId} and s.session_id = q.id)`;
  return new Set(rows.map((r) => r.id));
}
