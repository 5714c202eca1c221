import type { AgentId } from '@agentdash/core';
import type { z } from 'zod';
import type { DeviceInfo, PushSession, ShareTier } from '../contract.js';
import { behindDigests, recordBehind } from './behind-copies.js';
import { markCallCopies } from './call-copies.js';
import { dropUnreferencedChunks } from './chunk-gc.js';
import { missingChunks } from './chunk-store.js';
import { retryOnDeadlock, type Sql, type TxSql } from './db.js';
import { markPushed, seenBefore } from './device-seen.js';
import { insertDocStarts } from './doc-starts.js';
import { type DocRow, type DocStarts, docsWithStarts, insertSearchWords, searchWordsInserts } from './docs.js';
import { lockUids, UidForgottenError } from './forgotten.js';
import { sessionHasher } from './forgotten-key.js';

/** A session id an agent generated: a uuid. */
const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

import { childRows, chunksOf, ms, type Pusher, sessionRow } from './ingest-rows.js';
import { type Lowered, loweredFrom } from './lowered.js';
import { withoutNul } from './no-nul.js';
import { markResponseCopies } from './response-copies.js';
import { cutSessionTelemetry, lockSessionTelemetry } from './telemetry-tier.js';
import { ChunksGoneError, TranscriptSizeError } from './transcripts.js';

export type { Pusher } from './ingest-rows.js';

/** A push the server refuses whole, before writing anything. */
export class PushRefusedError extends Error {
  readonly code = 'TEAM_PUSH_REFUSED';
}

/** A session whose uid another person's session holds (`sessions_uid_key`): never stored beside it. */
export class UidTakenError extends Error {
  readonly code = 'TEAM_UID_TAKEN';
  constructor(readonly uid: string) {
    super(`session ${uid}: another person holds a session of this uid`);
  }
}

/** PostgreSQL's code for a unique index refusing a row. */
const UNIQUE_VIOLATION = '23505';

const BATCH = 1000;
/** Sessions of one push request stored at once. */
const STORE_AT_ONCE = 4;

/**
 * Multi-row inserts of `rows`, each started at once (postgres.js runs a query only when it is awaited or executed):
 * queries started one after another on a transaction's connection run in that order, in one round trip.
 */
function insertRows(tx: TxSql, table: string, rows: readonly Record<string, unknown>[]): Promise<unknown>[] {
  const inserts: Promise<unknown>[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    inserts.push(tx`insert into ${tx(table)} ${tx(batch as Record<string, unknown>[])}`.execute());
  }
  return inserts;
}

async function lockSession(tx: TxSql, personId: number, uid: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtextextended(${`agentdash-session:${personId}:${uid}`}, 0))`;
}

/** What storing a session did, and the tier it was lowered from (null when it was not). */
type Stored = {
  readonly result: 'stored' | 'unchanged' | 'behind' | 'taken' | 'forgotten' | 'forgotten copy';
  readonly lowered: ShareTier | null;
};
type Found = {
  digest: string | null;
  tier: ShareTier | null;
  lowered: ShareTier | null;
  old: string[];
  /** The stored copy's device and end. */
  device: string | null;
  ended: string | null;
};

/**
 * Stores one session in its own transaction: 'unchanged' when its digest is the stored one (nothing written; the tier
 * the stored one was lowered from is told again: a batch sent again after its answer was lost). 'behind' when
 * another device of the person stored a copy that went further (a home synced between two devices, this one's copy
 * lagging): the copy that went further stays, whichever device pushed it, until this one's catches up; a lagging copy
 * at a lower tier is stored (the lower tier is the person's choice, whichever copy went further; the other device's
 * next push at its own tier stores its copy again).
 * `digests`: the stored digests of the request's sessions, read before (a session found unchanged there is not cut).
 * 'taken' when another person holds its uid (a session, or one they forgot), 'forgotten' when its person forgot it
 * (forgotten.ts), 'forgotten copy' when the uid is new to the server and its person forgot a session of its id under
 * another uid (the same transcripts in another home of theirs; a session they hold under another uid of the id, such
 * as a headless run's copy, is not refused for it): the chunks it named that no session refers to (nor another of the request: `named` counts the
 * request's sessions naming each; `storeSessions` drops those once they are all done) are deleted at once, not left
 * a day for the sweep.
 */
async function storeSession(
  sql: Sql,
  s: PushSession,
  who: Pusher,
  digests: ReadonlyMap<string, string>,
  named: ReadonlyMap<string, number>,
): Promise<Stored> {
  const idHash = (await sessionHasher(sql))(s.sessionId);
  // Only an id its agent generated names one session wherever it is (a uuid: Claude Code's, Codex's, Gemini's,
  // Copilot's); Aider's (`aider-<repo folder>`) or one taken from a file's name may be two sessions' of the person.
  const generated = GENERATED_ID.test(s.sessionId);
  let docs: DocRow[] | undefined;
  let starts: DocStarts | undefined;
  if (s.tier === 'full') {
    // A transcript's documents are cut before the transaction: its connection (one of a few the whole server shares)
    // is not held while this thread parses. Chunks never change under their hash; one gone already (dropped since the
    // request's check) or by the transaction refuses the session as missing, and the laptop sends it again.
    // a full-tier session is never lower than another
    if (digests.get(s.uid) === s.digest) return { result: 'unchanged', lowered: null };
    const session = { uid: s.uid, agent: s.agent as AgentId, sessionId: s.sessionId, projectDir: s.projectDir };
    ({ docs, starts } = await docsWithStarts(sql, session, s.files).catch((error: unknown) => {
      if (!(error instanceof ChunksGoneError)) throw error;
      throw new PushRefusedError(`${error.message} (session ${s.uid}): upload them first`);
    }));
  }
  const rows = childRows(s, who);
  const wanted = rows.fileChunks.map((c) => c.sha256);
  return await sql.begin(async (tx) => {
    // Statements started together run one after another on the transaction's connection (a pipeline): the lock is
    // taken before the digest is read, and a session costs two round trips to PostgreSQL, not one per statement.
    const lock = tx`select pg_advisory_xact_lock(hashtextextended(${`agentdash-session:${who.personId}:${s.uid}`}, 0))`;
    const [, , , [found]] = await Promise.all([
      lock.execute(),
      // and the uid's, which a forget takes: the record of a forget is read after any forget of it committed; then
      // its telemetry's, so a forget of another uid of the id reads whether this one is stored before it deletes any
      lockUids(tx, [s.uid]),
      lockSessionTelemetry(tx, who.personId, [s.sessionId]),
      // one statement (its snapshot taken once the lock is held): the stored copy's row (`cur`, nulls when none),
      // whether another person holds the uid, the chunks the stored session refers to, and how many of this one's
      // chunks are stored, each locked until commit (key share), so no forget or replace elsewhere drops a chunk this
      // session is about to refer to
      tx<(Found & { held: number; taken: boolean; forgotten: boolean; forgottenCopy: boolean })[]>`
        select cur.digest, cur.tier, cur.lowered_from as lowered, cur.device_id as device, cur.ended_ms as ended,
          exists (select 1 from sessions where uid = ${s.uid} and person_id <> ${who.personId})
            or exists (select 1 from forgotten_sessions where uid = ${s.uid} and person_id <> ${who.personId}) as taken,
          exists (select 1 from forgotten_sessions where uid = ${s.uid} and person_id = ${who.personId}) as forgotten,
          cur.digest is null and ${generated} and exists (select 1 from forgotten_sessions
            where person_id = ${who.personId} and session_hash = ${idHash}) as "forgottenCopy",
          array(select sha256 from file_chunks where person_id = ${who.personId} and uid = ${s.uid}) as old,
          (select count(*)::int from (select 1 from chunks where sha256 = any(${wanted}::text[]) order by sha256 for key share) h)
            as held
        from (select) one left join sessions cur on cur.person_id = ${who.personId} and cur.uid = ${s.uid}`.execute(),
    ]);
    if (!found) throw new Error('the session lookup returned no row');
    if (found.digest === s.digest) return { result: 'unchanged', lowered: found.lowered } as const;
    // a copy lagging behind another device's waits, unless it lowers the tier: what the person chose to share is
    // never kept higher for a copy that went further (docs/team.md: a tier lowered later replaces what was held)
    const behind =
      found.device !== null &&
      Number(found.device) !== who.deviceId &&
      (ms(s.endedAt) ?? 0) < Number(found.ended ?? 0) &&
      loweredFrom(found.tier, s.tier) === null;
    const refused = found.taken
      ? 'taken'
      : found.forgotten
        ? 'forgotten'
        : found.forgottenCopy
          ? 'forgotten copy'
          : null;
    if (refused !== null || behind) {
      await dropUnreferencedChunks(
        tx,
        wanted.filter((name) => (named.get(name) ?? 0) <= 1),
      );
      if (refused === null) await recordBehind(tx, who, s.uid, s.digest);
      // The copy is recorded forgotten too, with the id's hash: an unforget from its own laptop (of its own uid) then
      // clears the forget with it, as one from the laptop that forgot it does (the records of one hash go together).
      if (refused === 'forgotten copy') {
        await tx`insert into forgotten_sessions (uid, person_id, session_hash)
          values (${s.uid}, ${who.personId}, ${idHash}) on conflict (uid) do nothing`;
      }
      return { result: refused ?? 'behind', lowered: null } as const;
    }
    if (found.held !== wanted.length) {
      throw new PushRefusedError(
        `${wanted.length - found.held} transcript chunks of session ${s.uid} are not stored: upload them first`,
      );
    }
    // calls, responses, files and their chunk references go with the row (on delete cascade); started in this order
    const writes: Promise<unknown>[] = [];
    if (found.digest !== null)
      writes.push(tx`delete from sessions where person_id = ${who.personId} and uid = ${s.uid}`.execute());
    const lowered = loweredFrom(found.tier, s.tier);
    writes.push(tx`insert into sessions ${tx(sessionRow(s, who, lowered) as Record<string, unknown>)}`.execute());
    writes.push(...insertRows(tx, 'calls', rows.calls), ...insertRows(tx, 'responses', rows.responses));
    writes.push(...insertRows(tx, 'files', rows.files), ...insertRows(tx, 'file_chunks', rows.fileChunks));
    if (docs) writes.push(...searchWordsInserts(tx, { personId: who.personId, uid: s.uid }, docs));
    if (starts) writes.push(insertDocStarts(tx, { personId: who.personId, uid: s.uid }, starts));
    writes.push(dropUnreferencedChunks(tx, found.old));
    await Promise.all(writes);
    // the session's telemetry, sent before, held at no more than its tier (as its transcript's rows just were)
    await cutSessionTelemetry(tx, who.personId, s.sessionId, s.tier);
    // last: they wait for the person's other sessions being stored to commit (call-copies.ts, response-copies.ts)
    await markCallCopies(
      tx,
      who.personId,
      s,
      rows.calls.map((c) => c.call_id),
    );
    await markResponseCopies(
      tx,
      who.personId,
      s.uid,
      rows.responses.map((r) => r.response_key),
    );
    return { result: 'stored', lowered } as const;
  });
}

/** Stores one session, again when PostgreSQL aborted it to break a deadlock with another (`retryOnDeadlock`). */
async function storeWithRetry(
  sql: Sql,
  s: PushSession,
  who: Pusher,
  digests: ReadonlyMap<string, string>,
  named: ReadonlyMap<string, number>,
): Promise<Stored> {
  try {
    const stored = await retryOnDeadlock(() => storeSession(sql, s, who, digests, named));
    if (stored.result === 'taken') throw new UidTakenError(s.uid);
    if (stored.result === 'forgotten' || stored.result === 'forgotten copy') {
      throw new UidForgottenError(s.uid, stored.result === 'forgotten copy');
    }
    return stored;
  } catch (error) {
    const { code, constraint_name: index } = error as { code?: unknown; constraint_name?: unknown };
    if (code === UNIQUE_VIOLATION && index === 'sessions_uid_key') throw new UidTakenError(s.uid);
    throw error;
  }
}

/**
 * Stores each session (its digest checked by the caller). Full-tier sessions whose chunks are not all stored refuse
 * the whole request before anything is written.
 */
export async function storeSessions(
  sql: Sql,
  sessions: readonly PushSession[],
  who: Pusher,
): Promise<{
  stored: number;
  unchanged: number;
  changed: string[];
  refused: { uid: string; reason: string }[];
  lowered: Lowered[];
}> {
  const wanted = sessions.flatMap((s) => (s.tier === 'full' ? [...chunksOf(s)] : []));
  const named = new Map<string, number>();
  for (const name of wanted) named.set(name, (named.get(name) ?? 0) + 1);
  const missing = await missingChunks(sql, wanted);
  if (missing.length > 0) {
    throw new PushRefusedError(
      `${missing.length} transcript chunk${missing.length === 1 ? ' is' : 's are'} not stored: upload ${
        missing.length === 1 ? 'it' : 'them'
      } first (PUT /api/team/v1/push/chunks/:sha256)`,
    );
  }
  // the full-tier sessions' stored digests in one query: an unchanged one is then not cut into its words (its
  // transaction checks the digest again under the session's lock)
  const full = sessions.flatMap((s) => (s.tier === 'full' ? [s.uid] : []));
  const digests = new Map(
    full.length === 0
      ? []
      : (
          await sql<{ uid: string; digest: string }[]>`select uid, digest from sessions
            where person_id = ${who.personId} and uid = any(${full}::text[])`
        ).map((r) => [r.uid, r.digest]),
  );
  const lowered: Lowered[] = [];
  const changed: string[] = [];
  const refused: { uid: string; reason: string }[] = [];
  let unchanged = 0;
  // A few sessions at once, each in its own transaction on its own connection: a session's dozen statements are
  // round trips the server would otherwise wait through one by one.
  let next = 0;
  // a failure that is no one session's (the database lost): the other workers take no more sessions of the request
  let failed = false;
  const worker = async () => {
    while (!failed && next < sessions.length) {
      const s = withoutNul(sessions[next++] as PushSession);
      try {
        const stored = await storeWithRetry(sql, s, who, digests, named);
        if (stored.result === 'stored') changed.push(s.uid);
        else unchanged++;
        if (stored.lowered !== null) lowered.push({ uid: s.uid, from: stored.lowered });
      } catch (error) {
        // One session another person holds, or its person forgot, or holding a value the database refuses, is refused
        // alone: the others of the request are stored, and its laptop, told, goes on with its next batch.
        if (error instanceof UidTakenError || error instanceof UidForgottenError) {
          refused.push({ uid: s.uid, reason: error.message });
        } else if (refusedValue(error)) {
          refused.push({ uid: s.uid, reason: `the team server cannot store it: ${(error as Error).message}` });
        } else {
          failed = true;
          throw error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STORE_AT_ONCE, sessions.length) }, worker));
  // accepted, whatever it changed: a push that found nothing new is a working device's (device-seen.ts)
  await markPushed(sql, who.deviceId);
  // the chunks refused sessions shared (each kept them for another of the request), once every session is done: best
  // effort (a deadlock, a dropped connection), the push stored what it did; the day-old sweep takes what is left
  const out = new Set(refused.map((r) => r.uid));
  const theirs = new Set(sessions.flatMap((s) => (s.tier === 'full' && out.has(s.uid) ? [...chunksOf(s)] : [])));
  const shared = [...theirs].filter((name) => (named.get(name) ?? 0) > 1);
  if (shared.length > 0) await sql.begin((tx) => dropUnreferencedChunks(tx, shared)).catch(() => 0);
  return { stored: changed.length, unchanged, changed, refused, lowered };
}

/** A PostgreSQL data exception (SQLSTATE class 22: a value out of range, an encoding it cannot hold): one session's. */
function refusedValue(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === 'PostgresError' && typeof code === 'string' && code.startsWith('22');
}

/** The uids of `entries` whose stored digest differs (or that are not stored), but for copies found behind. */
export async function manifestWant(
  sql: Sql,
  entries: readonly { uid: string; digest: string }[],
  who: Pusher,
  device: z.infer<typeof DeviceInfo>,
): Promise<string[]> {
  // an older laptop's hostname is not kept (nothing shows it), and one stored before is dropped; a push starts here,
  // so the device pushed now, whether or not anything is wanted (an unchanged push is a working device's), to the
  // minute (device-seen.ts)
  await sql`update devices set agentdash = ${device.agentdash}, hostname = null, platform = ${device.platform},
      last_push_at = now(), last_seen_at = now()
    where id = ${who.deviceId}
      and ((agentdash, hostname, platform) is distinct from (${device.agentdash}, null, ${device.platform})
        or ${sql.unsafe(seenBefore('last_push_at'))})`;
  if (entries.length === 0) return [];
  const uids = entries.map((e) => e.uid);
  const stored = new Map(
    (
      await sql<{ uid: string; digest: string }[]>`select uid, digest from sessions
        where person_id = ${who.personId} and uid = any(${uids}::text[])`
    ).map((r) => [r.uid, r.digest]),
  );
  // and not a copy found behind another device's, as it was then (behind-copies.ts)
  const behind = await behindDigests(sql, who, uids);
  return entries.filter((e) => stored.get(e.uid) !== e.digest && behind.get(e.uid) !== e.digest).map((e) => e.uid);
}

/**
 * Indexes the full-tier sessions stored before the schema had documents (or whose indexing failed): each in its own
 * transaction, so a server stopped midway resumes where it was. Returns how many sessions it indexed.
 */
export async function indexMissingDocs(sql: Sql): Promise<number> {
  const pending = await sql<
    { person_id: number; uid: string; agent: AgentId; session_id: string; project_dir: string | null }[]
  >`select s.person_id, s.uid, s.agent, s.session_id, s.project_dir from sessions s
    where s.tier = 'full' and not exists (select 1 from search_words d where d.person_id = s.person_id and d.uid = s.uid)`;
  let indexed = 0;
  for (const s of pending) {
    const done = await sql
      .begin(async (tx) => {
        await lockSession(tx, s.person_id, s.uid);
        const files = await tx<
          { name: string; role: 'main' | 'subagent'; agent_id: string | null; chunks: string[] }[]
        >`
        select f.name, f.role, f.agent_id, f.chunks from files f join sessions s using (person_id, uid)
        where f.person_id = ${s.person_id} and f.uid = ${s.uid} and s.tier = 'full' order by f.seq`;
        const [already] =
          await tx`select 1 from search_words where person_id = ${s.person_id} and uid = ${s.uid} limit 1`;
        if (already || files.length === 0) return false;
        const session = { uid: s.uid, agent: s.agent, sessionId: s.session_id, projectDir: s.project_dir ?? s.uid };
        const pushed = files.map((f) => ({ name: f.name, role: f.role, agentId: f.agent_id, chunks: f.chunks }));
        const made = await docsWithStarts(tx, session, pushed);
        await insertSearchWords(tx, { personId: s.person_id, uid: s.uid }, made.docs);
        if (made.starts) await insertDocStarts(tx, { personId: s.person_id, uid: s.uid }, made.starts);
        return true;
      })
      .catch((error: unknown) => {
        // one session stored before the limits whose transcripts are too large is left unsearchable, not the rest
        if (error instanceof TranscriptSizeError) return false;
        throw error;
      });
    if (done) indexed++;
  }
  return indexed;
}
