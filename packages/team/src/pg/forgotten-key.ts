/**
 * The session ids of forgotten sessions, kept as keyed hashes (HMAC-SHA256): `forgotten_sessions` records what a
 * person asked the server to forget, so it holds no session id in clear. The key is the server's own, made by the
 * migration that brought the hashes in and kept in `server_settings` (every team server on the database uses the
 * same); a lookup hashes the id it checks (`sessionHasher`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Sql, TxSql } from './db.js';

/** The setting holding the key, 64 hex digits. */
const KEY_SETTING = 'forgotten-session-key';

/** The HMAC-SHA256 of a session id under `key`, in hex. */
export const hashSessionId = (key: Buffer, sessionId: string): string =>
  createHmac('sha256', key).update(sessionId, 'utf8').digest('hex');

/** 23. The server's settings; the forgotten session ids become their hashes (`hashForgottenSessionIds`). */
export const FORGOTTEN_KEY_MIGRATION = `
  create table server_settings (name text primary key, value text not null);
  alter table forgotten_sessions rename column session_id to session_hash;
  alter index forgotten_sessions_session rename to forgotten_sessions_hash;`;

/** Rows a step of the migration converts at a time. */
const CONVERT = 5000;

/**
 * After `FORGOTTEN_KEY_MIGRATION`, in its transaction: makes the key, hashes each recorded session id with it, and
 * then holds the column to hashes.
 */
export async function hashForgottenSessionIds(tx: TxSql): Promise<void> {
  const key = randomBytes(32);
  await tx`insert into server_settings (name, value) values (${KEY_SETTING}, ${key.toString('hex')})`;
  const rows = await tx<{ uid: string; session_hash: string }[]>`
    select uid, session_hash from forgotten_sessions where session_hash is not null`;
  for (let i = 0; i < rows.length; i += CONVERT) {
    const batch = rows.slice(i, i + CONVERT);
    await tx`update forgotten_sessions f set session_hash = u.hash
      from unnest(${batch.map((r) => r.uid)}::text[], ${batch.map((r) => hashSessionId(key, r.session_hash))}::text[])
        as u(uid, hash)
      where f.uid = u.uid`;
  }
  await tx`alter table forgotten_sessions add constraint forgotten_sessions_hash_hex
    check (session_hash ~ '^[0-9a-f]{64}$')`;
}

/** Each pool's key, read once (it never changes). */
const keys = new WeakMap<Sql, Promise<Buffer>>();

/** The hash of a session id as `forgotten_sessions` keeps it, with the database's key (read once per pool). */
export async function sessionHasher(sql: Sql): Promise<(sessionId: string) => string> {
  let key = keys.get(sql);
  if (key === undefined) {
    key = sql<{ value: string }[]>`select value from server_settings where name = ${KEY_SETTING}`.then(([row]) => {
      if (!row) throw new Error(`server_settings holds no ${KEY_SETTING}: the schema is not migrated`);
      // Buffer.from stops at the first digit it cannot read: a damaged key would hash under a shorter one
      if (!/^[0-9a-f]{64}$/.test(row.value)) throw new Error(`server_settings' ${KEY_SETTING} is not 64 hex digits`);
      return Buffer.from(row.value, 'hex');
    });
    keys.set(sql, key);
    // a failed read (the database away) is read again next time
    key.catch(() => keys.delete(sql));
  }
  const bytes = await key;
  return (sessionId) => hashSessionId(bytes, sessionId);
}
