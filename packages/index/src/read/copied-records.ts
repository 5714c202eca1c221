/**
 * The records a session holds that another session of its home owns: the earlier conversation a resume (Claude Code
 * ≤ 1.0.117) or a fork copied, uuids, message ids and times kept. The session that owns the responses they share
 * (`ownsBefore`, as usage and the tool calls count them) owns their records too; the copy's prompts, responses and
 * time (core's `RecordFact.copied`) leave them out. The index's row (`SessionUpdater.settle`) and a load of the
 * session (`LoadSessionOptions.copiedElsewhere`) take them from here, so the list and `show` count alike.
 */
import type Database from 'better-sqlite3';
import { prepared } from '../schema/statements.js';
import { ownsBefore, SESSION_OF_REF, type SessionRow } from './usage-queries.js';

/**
 * The keys of the sessions of the same home that share a response with the session `key` and own it first
 * (`ownsBefore`): the sessions it copied from.
 */
export function ownersOf(db: Database.Database, key: string): string[] {
  const ref = prepared(db, 'SELECT id FROM strings WHERE text = ?', 'pluck').get(key) as number | undefined;
  if (ref === undefined) return [];
  const others = prepared(
    db,
    `SELECT DISTINCT o.session_ref FROM responses r JOIN responses o ON o.key = r.key AND o.session_ref <> r.session_ref
     WHERE r.session_ref = ?`,
    'pluck',
  ).all(ref) as number[];
  if (others.length === 0) return [];
  const rowOf = prepared(db, SESSION_OF_REF, 'raw');
  const me = rowOf.get(ref) as SessionRow | undefined;
  if (me === undefined) return [];
  return others.flatMap((other) => {
    const them = rowOf.get(other) as SessionRow | undefined;
    return them !== undefined && them[6] === me[6] && ownsBefore(them, me) ? [them[0]] : [];
  });
}

/** SQL: the stored uuids (`records.uuid_raw`) of the records of the sessions `?` names (their keys, a JSON array). */
const OWNED_UUIDS = `SELECT o.uuid_raw FROM records o JOIN files of ON of.id = o.file_id
  WHERE of.session_id IN (SELECT value FROM json_each(?)) AND o.uuid_raw IS NOT NULL`;

/**
 * The session `key`'s records that the sessions `owners` hold too (`ownersOf`), by `hex(uuid_raw)` as the session's
 * scan reads them (session-scan.ts); empty without owners.
 */
export function copiedUuidsHex(db: Database.Database, key: string, owners: readonly string[]): Set<string> {
  if (owners.length === 0) return new Set();
  const rows = prepared(
    db,
    `SELECT hex(uuid_raw) FROM (SELECT r.uuid_raw FROM records r JOIN files f ON f.id = r.file_id
       WHERE f.session_id = ? AND r.uuid_raw IS NOT NULL INTERSECT ${OWNED_UUIDS})`,
    'pluck',
  ).all(key, JSON.stringify(owners)) as string[];
  return new Set(rows);
}

/** The uuids (as core decodes them) of the session `key`'s records another session of its home owns. */
export function copiedUuids(db: Database.Database, key: string): Set<string> {
  const owners = ownersOf(db, key);
  if (owners.length === 0) return new Set();
  const rows = prepared(
    db,
    `SELECT DISTINCT r.uuid FROM records r JOIN files f ON f.id = r.file_id
     WHERE f.session_id = ? AND r.uuid_raw IN (${OWNED_UUIDS})`,
    'pluck',
  ).all(key, JSON.stringify(owners)) as string[];
  return new Set(rows);
}
