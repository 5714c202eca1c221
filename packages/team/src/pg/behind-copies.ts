/**
 * A device's copy of a session that lags behind the one another device of the person stored (a home synced between
 * two devices, this one's sync late): not written (ingest.ts, 'behind'), and remembered by its digest, so the
 * device's next push is not asked for it again while it stays as it was (its session and its transcripts' chunks
 * sent, refused and dropped at every push). A changed copy has another digest: asked for, and judged again.
 *
 * The record is the stored session's (keyed to its row, on delete cascade): once that row is replaced (a copy that
 * went further, or this device's having caught up), forgotten or erased, the record goes with it and the device's
 * copy is asked for again.
 */
import type { Sql, TxSql } from './db.js';

/** Shipped: never edit this text, add a migration. */
export const BEHIND_COPIES_MIGRATIONS = [
  {
    version: 25,
    name: "each device's copy of a session that lags behind the stored one, not asked for again while unchanged",
    sql: `
      create table behind_copies (
        person_id bigint not null,
        uid text not null,
        device_id bigint not null references devices(id) on delete cascade,
        digest text not null,
        primary key (person_id, uid, device_id),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );`,
  },
];

/** Remembers `digest` as device `deviceId`'s copy of the stored session `uid`, behind it. */
export async function recordBehind(
  tx: TxSql,
  who: { readonly personId: number; readonly deviceId: number },
  uid: string,
  digest: string,
): Promise<void> {
  await tx`insert into behind_copies (person_id, uid, device_id, digest)
    values (${who.personId}, ${uid}, ${who.deviceId}, ${digest})
    on conflict (person_id, uid, device_id) do update set digest = excluded.digest`;
}

/** The digests of `uids` that device `deviceId`'s copies had when found behind, by uid. */
export async function behindDigests(
  sql: Sql,
  who: { readonly personId: number; readonly deviceId: number },
  uids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sql<{ uid: string; digest: string }[]>`select uid, digest from behind_copies
    where person_id = ${who.personId} and device_id = ${who.deviceId} and uid = any(${[...uids]}::text[])`;
  return new Map(rows.map((r) => [r.uid, r.digest]));
}
