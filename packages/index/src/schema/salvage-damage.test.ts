/**
 * A damaged index whose archive itself has damaged pages: the rebuild keeps every archived row that reads. Before,
 * one damaged leaf of `archive_chunks` failed the whole copy (SQLite's error stuck to the transaction, its COMMIT
 * failed too) and `index --rebuild` exited 14; a damaged last leaf lost the whole table (its MAX(rowid) unreadable).
 */
import { openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../../test/temp-index.js';
import { openIndex } from '../index.js';

const t = useTempIndex('agentdash-salvage-damage-');
const SESSIONS = 40;
const idOf = (n: number) => `5a1b0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The leaf pages of `table`, in b-tree order (SQLite's `dbstat`), its WAL folded in first. */
function leavesOf(db: string, table: string): number[] {
  const conn = new Database(db);
  conn.pragma('wal_checkpoint(TRUNCATE)');
  const pages = conn
    .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path")
    .pluck()
    .all(table) as number[];
  conn.close();
  return pages;
}

function damagePage(db: string, page: number): void {
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0x7f), 0, 4096, (page - 1) * 4096);
}

describe('a damaged index whose archive has damaged pages, rebuilt', () => {
  it('keeps every archived transcript whose chunks read, whatever leaf is damaged, the last one included', async () => {
    const home = join(t.dir, 'home');
    for (let n = 1; n <= SESSIONS; n++)
      writeDemoHome(home, { outputOnlyWord: `w${n}`, subagentOnlyWord: 'b' }, idOf(n), `s${n}`);
    await t.index.refresh([home]);
    rmSync(join(home, 'projects'), { recursive: true });
    await t.index.refresh([home]);
    expect(t.index.listSessions().filter((s) => s.archived)).toHaveLength(SESSIONS);
    t.index.close();

    const dbPath = join(t.dir, 'db', 'index.sqlite');
    const leaves = leavesOf(dbPath, 'archive_chunks');
    expect(leaves.length).toBeGreaterThan(4);
    const records = leavesOf(dbPath, 'records');
    for (const page of [records[0] as number, leaves[Math.floor(leaves.length / 2)] as number, leaves.at(-1) as number])
      damagePage(dbPath, page);

    const warnings: string[] = [];
    t.index = openIndex({ dbPath, rebuild: true, onWarning: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    const kept = Number(/kept (\d+) archived transcripts/.exec(warnings[0] ?? '')?.[1]);
    // two damaged leaves of chunks lose a few transcripts' bytes, no more
    expect(kept).toBeGreaterThan(SESSIONS * 2 * 0.75);
    await t.index.refresh([home]);
    const back = t.index.listSessions().filter((s) => s.archived).length;
    expect(back).toBeGreaterThan(SESSIONS * 0.75);
    expect(back).toBeLessThanOrEqual(SESSIONS);
  });
});
