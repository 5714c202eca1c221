/**
 * A damaged index is moved aside and built again; its archive (the transcripts their agents deleted, kept nowhere
 * else) comes along as far as it still reads. Before, the new index started without it: a damaged page of a table
 * the rebuild drops (`records`) made every deleted session vanish, although each archived row still read (a review
 * helper: 76 archived sessions gone after `index --rebuild`, all 462 `archive_files` rows readable in the old file).
 */
import { openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../../test/temp-index.js';
import { openIndex } from '../index.js';
import { salvageArchive } from './salvage.js';
import { FORGOT_KEY } from './settings.js';

const t = useTempIndex('agentdash-salvage-');
const IDS = [
  '5a1a0000-0000-4000-8000-000000000001',
  '5a1a0000-0000-4000-8000-000000000002',
  '5a1a0000-0000-4000-8000-000000000003',
];

/** Overwrites the root page of `table` (its WAL folded in first) with bytes of no b-tree page. */
function damageTable(db: string, table: string): void {
  const conn = new Database(db);
  conn.pragma('wal_checkpoint(TRUNCATE)');
  const root = conn.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').pluck().get(table) as number;
  const pageSize = conn.pragma('page_size', { simple: true }) as number;
  conn.close();
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0x7f), 0, pageSize, (root - 1) * pageSize);
}

/**
 * Three sessions indexed, then two sessions' files deleted (as the agent's 30-day cleanup does) and indexed again:
 * those two kept by the archive alone. Returns the home.
 */
async function twoOfThreeGone(): Promise<string> {
  const home = join(t.dir, 'home');
  for (const id of IDS) writeDemoHome(home, { outputOnlyWord: 'a', subagentOnlyWord: 'b' }, id, id.slice(-4));
  await t.index.refresh([home]);
  for (const id of IDS.slice(0, 2)) {
    rmSync(join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`));
    rmSync(join(home, 'projects', '-home-user-proj-demo', id), { recursive: true });
  }
  await t.index.refresh([home]);
  return home;
}

describe('a damaged index rebuilt', () => {
  it('keeps the sessions whose transcripts are gone: the archive is copied into the new index', async () => {
    const home = await twoOfThreeGone();
    const before = t.index.listSessions().map((s) => [s.id, s.archived, s.toolCalls]);
    expect(before.filter(([, archived]) => archived)).toHaveLength(2);
    t.index.close();

    const dbPath = join(t.dir, 'db', 'index.sqlite');
    damageTable(dbPath, 'records');
    const warnings: string[] = [];
    t.index = openIndex({ dbPath, rebuild: true, onWarning: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /unusable .*moved it to .*\.corrupt-.* and rebuilt the index; kept 6 archived transcripts/,
    );
    expect(readdirSync(join(t.dir, 'db')).some((n) => n.includes('.corrupt-'))).toBe(true);
    await t.index.refresh([home]);
    expect(t.index.listSessions().map((s) => [s.id, s.archived, s.toolCalls])).toEqual(before);
  });
});

describe('an index moved aside beside a new one', () => {
  // An older AgentDash that cannot read a newer index moves it aside (`.corrupt-<time>`) and starts a new one: back
  // on this version, the archive stayed in the moved file (a review helper: 76 archived sessions gone, exit 0).
  it('gives the new index the archived transcripts it lacks, once', async () => {
    const home = await twoOfThreeGone();
    const before = t.index.listSessions().map((s) => [s.id, s.archived, s.toolCalls]);
    t.index.close();
    // what the older build did: the file moved aside, a new one started in its place
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    renameSync(dbPath, `${dbPath}.corrupt-2026-12-01T10-00-00-000Z`);
    for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    const warnings: string[] = [];
    t.index = openIndex({ dbPath, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([
      `brought back 4 archived transcripts of files gone from disk from ${dbPath}.corrupt-2026-12-01T10-00-00-000Z, an index moved aside`,
    ]);
    await t.index.refresh([home]);
    expect(t.index.listSessions().map((s) => [s.id, s.archived, s.toolCalls])).toEqual(before);
    t.index.close();
    // read once: the next open says nothing
    const again: string[] = [];
    t.index = openIndex({ dbPath, onWarning: (m) => again.push(m) });
    expect(again).toEqual([]);
  });
});

describe('an index moved aside before a session was forgotten on purpose', () => {
  it('is not read back (the session stays forgotten), and is never written', async () => {
    const home = join(t.dir, 'home');
    for (const id of IDS) writeDemoHome(home, { outputOnlyWord: 'a', subagentOnlyWord: 'b' }, id, id.slice(-4));
    await t.index.refresh([home]);
    rmSync(join(home, 'projects'), { recursive: true });
    await t.index.refresh([home]);
    t.index.close();
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    const aside = `${dbPath}.corrupt-2026-12-01T10-00-00-000Z`;
    renameSync(dbPath, aside);
    for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    const stamp = statSync(aside).mtimeMs;
    // the new index: a session forgotten there after the file was moved aside
    const raw = openIndex({ dbPath: join(t.dir, 'db', 'other.sqlite') });
    raw.close();
    renameSync(join(t.dir, 'db', 'other.sqlite'), dbPath);
    const conn = new Database(dbPath);
    conn.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(FORGOT_KEY, String(Date.now()));
    conn.close();
    const warnings: string[] = [];
    t.index = openIndex({ dbPath, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(t.index.listSessions()).toEqual([]);
    expect(statSync(aside).mtimeMs).toBe(stamp);
  });
});

describe('salvageArchive', () => {
  it('keeps each archived transcript to its first lost chunk, and drops one with no byte left', () => {
    const aside = join(t.dir, 'db', 'aside.sqlite');
    openIndex({ dbPath: aside }).close();
    const old = new Database(aside);
    const file = old.prepare(
      `INSERT INTO archive_files (path, project_dir, role, file_size, mtime_ms, ino, archived_bytes)
       VALUES (?, '/p', 'main', ?, 0, 1, ?)`,
    );
    const chunk = old.prepare('INSERT INTO archive_chunks (path, offset, length, data) VALUES (?, ?, ?, ?)');
    file.run('/p/whole.jsonl', 20, 20);
    chunk.run('/p/whole.jsonl', 0, 10, Buffer.from('a'));
    chunk.run('/p/whole.jsonl', 10, 10, Buffer.from('b'));
    // its middle chunk lost: kept to byte 10
    file.run('/p/cut.jsonl', 30, 30);
    chunk.run('/p/cut.jsonl', 0, 10, Buffer.from('c'));
    chunk.run('/p/cut.jsonl', 20, 10, Buffer.from('d'));
    // its first chunk lost: nothing to read
    file.run('/p/gone.jsonl', 20, 20);
    chunk.run('/p/gone.jsonl', 10, 10, Buffer.from('e'));
    old.close();

    const fresh = new Database(join(t.dir, 'db', 'fresh.sqlite'));
    fresh.exec(`CREATE TABLE archive_files (path TEXT PRIMARY KEY, project_dir TEXT NOT NULL, role TEXT NOT NULL,
      session_id TEXT, agent_id TEXT, meta_path TEXT, file_size INTEGER NOT NULL, mtime_ms REAL NOT NULL,
      ino INTEGER NOT NULL, archived_bytes INTEGER NOT NULL DEFAULT 0, agent TEXT, headless INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE archive_chunks (id INTEGER PRIMARY KEY, path TEXT NOT NULL, offset INTEGER NOT NULL,
        length INTEGER NOT NULL, data BLOB NOT NULL, codec INTEGER NOT NULL DEFAULT 0, UNIQUE (path, offset));
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    expect(salvageArchive(fresh, aside)).toEqual({ files: 2, lost: 1, cut: 1 });
    expect(fresh.prepare('SELECT path, archived_bytes FROM archive_files ORDER BY path').all()).toEqual([
      { path: '/p/cut.jsonl', archived_bytes: 10 },
      { path: '/p/whole.jsonl', archived_bytes: 20 },
    ]);
    expect(fresh.prepare('SELECT path, offset FROM archive_chunks ORDER BY path, offset').raw().all()).toEqual([
      ['/p/cut.jsonl', 0],
      ['/p/whole.jsonl', 0],
      ['/p/whole.jsonl', 10],
    ]);
    // archive_versions is not in this (older-shaped) index: skipped, not an error
    fresh.close();
  });
});
