/**
 * Telemetry of a pushed session held at no more than the session's tier: the laptop decides what leaves of a session,
 * and the device's tier (`team add-device --share`, set by the admin) only caps what its exporter sends. A record is
 * stored at the lower of the device's tier and the lowest tier the person pushed its session (joined by session id)
 * at; a push at a lower tier cuts what is stored of the session's telemetry as it cuts the transcript's rows, and
 * `push --forget` deletes it. Telemetry of a session never pushed stays at the device's tier.
 *
 * A session's telemetry is written under one lock (its person's, of its session id: `lockSessionTelemetry`), taken by
 * an export's transaction and by a push's or forget's: an export read the session's tier before a push stored it is
 * cut by that push, never after.
 */
import { createHash } from 'node:crypto';
import type { OtelRecord } from '@agentdash/core';
import { lowerTier, type ShareTier, shareTiers, tierCovers } from '../contract.js';
import { canonicalJson } from '../digest.js';
import { recordAtTier } from '../otel/share.js';
import { lockKeys, type Sql, type TxSql } from './db.js';
import { noNul } from './no-nul.js';

/**
 * A record as stored (`value`), and its JSON text: keys sorted, so a record read back from jsonb (which orders them
 * its own way) and cut gives the text an export cut to the same tier gives.
 */
export const jsonOf = (record: OtelRecord): { json: string; value: unknown } => {
  const json = noNul(canonicalJson(record)).replaceAll('\\u0000', '\\ufffd');
  return { json, value: JSON.parse(json) as unknown };
};
/** A record's name, but a span's: the hash of what is stored of it (an exporter's retry is stored once). */
export const keyOf = (json: string) => createHash('sha256').update(json).digest('base64url').slice(0, 32);

/**
 * How many telemetry locks a person has: a session id's is one of them (`telemetryLockOf`), so a transaction holds at
 * most this many however many ids it names (an export of thousands would otherwise exhaust PostgreSQL's lock table,
 * some thousands shared by every connection). Two ids of one lock wait on each other needlessly, and with a person's
 * sessions sharing locks, a transaction holding one lock and waiting on a row (a chunk) can deadlock with another
 * holding that row and asking for the lock for another id: every transaction takes them after its uid locks and
 * before any chunk's row lock (a push's order; a forget's, forgotten.ts), never in another.
 */
export const TELEMETRY_LOCKS = 64;

/** The lock of a session id's telemetry among its person's (FNV-1a of the id's UTF-16 units). */
export function telemetryLockOf(sessionId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) h = Math.imul(h ^ sessionId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % TELEMETRY_LOCKS;
}

/**
 * Takes the locks of the person's telemetry of `sessionIds` (`lockKeys`, `TELEMETRY_LOCKS` at most), all in one
 * statement. Taken after any uid lock of the transaction (a push's, a forget's), never before: one order, no
 * deadlock. A transaction takes them once (or the same again, a push's cut): two takings of different locks in one
 * transaction could wait on another's in the other order, now that ids share locks.
 */
export function lockSessionTelemetry(tx: TxSql, personId: number, sessionIds: readonly string[]): Promise<unknown> {
  const locks = new Set(sessionIds.filter((id) => id !== '').map(telemetryLockOf));
  return lockKeys(
    tx,
    [...locks].map((n) => `agentdash-otel:${personId}:${n}`),
  );
}

/**
 * The lowest tier the person pushed each of `sessionIds` at (absent: not pushed). Locked first: the lock and the
 * read are sent together (the read runs once the lock is held), and so is a statement started by the caller before
 * it awaits this (an export's `forgottenSessionIds`): one round trip.
 */
export async function pushedTiers(
  tx: TxSql,
  personId: number,
  sessionIds: readonly string[],
): Promise<Map<string, ShareTier>> {
  const tiers = new Map<string, ShareTier>();
  if (sessionIds.length === 0) return tiers;
  const [, rows] = await Promise.all([
    lockSessionTelemetry(tx, personId, sessionIds),
    tx<{ session_id: string; tier: ShareTier }[]>`select session_id, tier from sessions
      where person_id = ${personId} and session_id = any(${[...new Set(sessionIds)]}::text[])`.execute(),
  ]);
  for (const r of rows) tiers.set(r.session_id, lowerTier(tiers.get(r.session_id) ?? r.tier, r.tier));
  return tiers;
}

/** The tables of a session's telemetry. */
const TABLES = ['otel_events', 'otel_spans', 'otel_metrics'] as const;

/**
 * Cuts the person's stored telemetry of `sessionId` held above `tier` to `tier` (`recordAtTier` of what is stored:
 * cutting a cut record gives the record cut once to the lower tier). A record whose name is the hash of what is
 * stored of it is named again, and stored once when two become the same (as an export at that tier stores them).
 */
export async function cutSessionTelemetry(
  tx: TxSql,
  personId: number,
  sessionId: string,
  tier: ShareTier,
): Promise<void> {
  const above = shareTiers.filter((t) => !tierCovers(tier, t));
  if (above.length === 0 || sessionId === '') return;
  // the lock and the deletes started together: one round trip when there is nothing to cut (a push's common case)
  const lock = lockSessionTelemetry(tx, personId, [sessionId]);
  const deletes = TABLES.map((table) =>
    tx<Record<string, unknown>[]>`delete from ${tx(table)}
      where person_id = ${personId} and session_id = ${sessionId} and tier = any(${above}::text[]) returning *`.execute(),
  );
  const [, ...deleted] = await Promise.all([lock, ...deletes]);
  for (const [t, rows] of deleted.entries()) {
    const cut = rows.map((row): Record<string, unknown> => {
      const { json, value } = jsonOf(recordAtTier(row.record as OtelRecord, tier));
      // a span's tool result (`span:…`) and a span are named by their ids, the rest by what is stored of them
      const named = typeof row.key === 'string' && !row.key.startsWith('span:');
      return { ...row, tier, record: value, ...(named ? { key: keyOf(json) } : {}) };
    });
    for (let i = 0; i < cut.length; i += 500) {
      await tx`insert into ${tx(TABLES[t] as string)} ${tx(cut.slice(i, i + 500))} on conflict do nothing`;
    }
  }
}

/** Deletes the person's telemetry of `sessionIds` (their sessions forgotten; its locks held: `lockSessionTelemetry`). */
export async function deleteSessionTelemetry(tx: TxSql, personId: number, sessionIds: readonly string[]) {
  const ids = [...new Set(sessionIds)].filter((id) => id !== '');
  if (ids.length === 0) return;
  for (const table of TABLES) {
    await tx`delete from ${tx(table)} where person_id = ${personId} and session_id = any(${ids}::text[])`;
  }
  // and the records of kinds not modelled naming any of them (`sessionIdsOf`)
  await tx`delete from otel_unknown where person_id = ${personId} and session_ids && ${ids}::text[]`;
}

/**
 * Cuts the telemetry a server before this rule stored above its pushed session's tier, each session in its own
 * transaction (run when the server starts, as `indexMissingDocs`). Returns how many sessions it cut.
 */
export async function cutStoredTelemetry(sql: Sql): Promise<number> {
  const tiers = [...shareTiers];
  const above = (table: string) => sql`exists (select 1 from ${sql(table)} o where o.person_id = p.person_id
    and o.session_id = p.session_id and array_position(${tiers}::text[], o.tier) > p.rank)`;
  const pending = await sql<{ person_id: number; session_id: string; tier: ShareTier }[]>`
    with p as (select person_id, session_id, min(array_position(${tiers}::text[], tier)) as rank
      from sessions group by person_id, session_id)
    select p.person_id::int, p.session_id, (${tiers}::text[])[p.rank] as tier from p
    where ${above('otel_events')} or ${above('otel_spans')} or ${above('otel_metrics')}`;
  for (const s of pending) {
    await sql.begin((tx) => cutSessionTelemetry(tx, s.person_id, s.session_id, s.tier));
  }
  return pending.length;
}
