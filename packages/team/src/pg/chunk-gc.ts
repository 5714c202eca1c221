/**
 * Transcript chunks no session refers to are deleted: at once when a session that referred to them is replaced,
 * forgotten or erased, or a session naming them is refused (its uid another person's: `dropUnreferencedChunks`),
 * and, for those no session ever came to refer to (a push killed between its chunks and its sessions), by a sweep
 * of those older than a day (`sweepOrphanChunks`), which a team server runs at most once an hour.
 */
import type { Sql, TxSql } from './db.js';
import { forgetChunks } from './recent-chunks.js';

/** How old an unreferenced chunk must be before a sweep deletes it: a push in progress refers to its chunks by then. */
export const ORPHAN_CHUNK_AGE_MS = 24 * 60 * 60 * 1000;
/** How often a team server sweeps, at most. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes those of `hashes` that no file refers to. The candidates are locked first, in name order (the order a
 * session's store locks its chunks in): a store that is about to refer to one holds it until it commits, and the
 * delete then runs with a snapshot that sees the new reference, so it keeps the chunk.
 */
export async function dropUnreferencedChunks(tx: TxSql, hashes: readonly string[]): Promise<number> {
  if (hashes.length === 0) return 0;
  // started at the call (before its first await), so it runs after the statements started before it
  const locked = tx`select sha256 from chunks where sha256 = any(${hashes as string[]}::text[])
    order by sha256 for update`.execute();
  await locked;
  return await deleteUnreferenced(tx, hashes);
}

async function deleteUnreferenced(tx: TxSql, hashes: readonly string[]): Promise<number> {
  const gone = await tx<{ sha256: string }[]>`delete from chunks c where c.sha256 = any(${hashes as string[]}::text[])
    and not exists (select 1 from file_chunks f where f.sha256 = c.sha256) returning c.sha256`;
  const names = gone.map((r) => r.sha256);
  // nor kept in memory (an erased transcript leaves the server whole)
  forgetChunks(names);
  return names.length;
}

/**
 * Deletes the chunks no file refers to that were stored more than `olderThanMs` ago, in batches; returns how many. A
 * chunk locked by a store in progress is left for the next sweep.
 */
export async function sweepOrphanChunks(sql: Sql, olderThanMs = ORPHAN_CHUNK_AGE_MS): Promise<number> {
  const age = `${Math.max(0, Math.round(olderThanMs))} milliseconds`;
  let total = 0;
  // each batch goes on from the last name of the one before (one pass over the table, not one per batch)
  let after = '';
  for (;;) {
    const batch = await sql.begin(async (tx) => {
      const candidates = await tx<{ sha256: string }[]>`select c.sha256 from chunks c
        where c.sha256 > ${after} and c.stored_at < now() - ${age}::interval
          and not exists (select 1 from file_chunks f where f.sha256 = c.sha256)
        order by c.sha256 limit 1000 for update skip locked`;
      const names = candidates.map((c) => c.sha256);
      return { names, deleted: names.length === 0 ? 0 : await deleteUnreferenced(tx, names) };
    });
    if (batch.names.length === 0) return total;
    total += batch.deleted;
    after = batch.names[batch.names.length - 1] as string;
  }
}

/**
 * Marks `names` as wanted now (their `stored_at`): a push that found them stored (`chunks/check`) and so does not send
 * them again refers to them soon, and a sweep must not take them meanwhile, however old they are.
 */
export async function touchChunks(sql: Sql, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await sql`update chunks set stored_at = now()
    where sha256 = any(${names as string[]}::text[]) and stored_at < now() - interval '1 hour'`;
}

/** Runs `sweepOrphanChunks` when the last sweep of this process is more than `SWEEP_EVERY_MS` ago; never throws. */
export function sweeper(sql: Sql, now: () => number = Date.now): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let running = false;
  return () => {
    if (running || now() - last < SWEEP_EVERY_MS) return;
    running = true;
    last = now();
    void sweepOrphanChunks(sql)
      .catch(() => {})
      .finally(() => {
        running = false;
      });
  };
}
