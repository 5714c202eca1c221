/**
 * An index written by the last version whose derived tables came from migration steps (schema 27, with views and
 * triggers) opens with today's schema, keeps its archive byte for byte, and after a refresh answers as an index built
 * afresh does.
 *
 * The fixture (`test/fixtures/index-v27.sqlite.gz`) was built by that version from the bundled sample home copied to
 * `FIXTURE_HOME`: indexed whole, then one session's file deleted and indexed again, so that the session lives in the
 * archive only. Here the sample home is copied elsewhere and the fixture's archive is moved with it (its paths, and
 * the inode and mtime of each file that is there), as a user's index would be if the home had always been there.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { decompressChunk } from '../archive/archive-codec.js';
import { type AgentIndex, openIndex } from '../index.js';
import { WarmIndex } from '../warm/warm.js';
import { ARCHIVE_TABLES, DERIVED_VERSION, SCHEMA_VERSION } from './schema.js';

const FIXTURE = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/index-v27.sqlite.gz');
const FIXTURE_HOME = '/tmp/agentdash-fixture/claude-home';
/** The archive's columns added after the fixture's schema (27). */
const STEP_29 = ['agent', 'headless'] as const;
/** The session whose file was deleted before the fixture's last refresh. */
const GONE = 'projects/-home-user-proj-web/ce0cfe36-d172-49be-b802-c6e3f6a30dc2.jsonl';

let dir: string;
let home: string;
const opened: AgentIndex[] = [];

beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-upgrade-'));
});
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(name: string): AgentIndex {
  const index = openIndex({ dbPath: join(dir, name) });
  opened.push(index);
  return index;
}

/**
 * Every archive row as one line (blobs as base64), sorted. `withIds`: with the chunks' row ids; a refresh archives a
 * file on disk that it reads from byte 0 again from byte 0 (as the steps that emptied the derived tables made it
 * do): the same rows under new row ids, each chunk holding the same bytes (`held`: its data decompressed; the frames
 * themselves may differ, written at another level than the fixture's).
 */
/**
 * The archive's rows as JSON lines per table, sorted; `added`: columns left out (those a step after the fixture added,
 * to compare with the fixture's own rows).
 */
function archiveRows(
  db: Database.Database,
  withIds = true,
  held = false,
  added: readonly string[] = [],
): Record<string, string[]> {
  const line = (row: Record<string, unknown>) =>
    JSON.stringify(
      held && Buffer.isBuffer(row.data) ? { ...row, data: decompressChunk(row.codec as 0 | 1, row.data) } : row,
      (_key, value) => (value?.type === 'Buffer' ? Buffer.from(value.data).toString('base64') : (value as unknown)),
    );
  return Object.fromEntries(
    ARCHIVE_TABLES.map((table) => [
      table,
      (db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[])
        .map(({ id, ...row }) => {
          for (const column of added) delete row[column];
          return line(withIds ? { id, ...row } : row);
        })
        .sort(),
    ]),
  );
}

/** The fixture at `path`, its archive moved to `home`: the paths, and each present file's inode and mtime. */
function placeFixture(path: string): Record<string, string[]> {
  writeFileSync(path, gunzipSync(readFileSync(FIXTURE)));
  const db = new Database(path);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(27);
    const move = (table: string, column: string) =>
      db
        .prepare(`UPDATE ${table} SET ${column} = ? || substr(${column}, ?) WHERE substr(${column}, 1, ?) = ?`)
        .run(home, FIXTURE_HOME.length + 1, FIXTURE_HOME.length, FIXTURE_HOME);
    for (const column of ['path', 'project_dir', 'meta_path']) move('archive_files', column);
    move('archive_chunks', 'path');
    move('archive_versions', 'path');
    for (const { path: file } of db.prepare('SELECT path FROM archive_files').all() as { path: string }[]) {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      db.prepare('UPDATE archive_files SET mtime_ms = ?, ino = ? WHERE path = ?').run(stat.mtimeMs, stat.ino, file);
    }
    return archiveRows(db);
  } finally {
    db.close();
  }
}

/** What the commands show: `sessions --json`, `stats --json`, search hits, usage, each session loaded. */
async function shown(index: AgentIndex) {
  const sessions = index.listSessions();
  return {
    sessions: sessions.map(({ isLive: _live, ...rest }) => rest),
    stats: index.stats(),
    search: await Promise.all(['file', 'error', 'README', 'function'].map((q) => index.search(q))),
    usage: index.usageResponses(),
    issues: index.issues(),
    loaded: await Promise.all(
      sessions.map(async (s) => {
        const { calls, events, subagents, issues, usageByModel } = await index.loadSession(s.id);
        return { calls, events, subagents: subagents.map((a) => a.events), issues, usageByModel };
      }),
    ),
  };
}

it('opens an index of schema 27, keeps its archive and ends equal to a fresh index', async () => {
  // The fresh index: the whole home, then the same file deleted.
  const fresh = open('fresh.sqlite');
  await fresh.refresh([home]);
  rmSync(join(home, GONE));
  await fresh.refresh([home]);
  const expected = await shown(fresh);
  expect(expected.sessions).toHaveLength(28);
  expect(expected.search.every((hits) => hits.length > 0)).toBe(true);
  expect(expected.sessions.filter((s) => s.archived).map((s) => s.id)).toEqual([GONE.slice(-42, -6)]);

  const oldPath = join(dir, 'old.sqlite');
  const archive = placeFixture(oldPath);
  const upgraded = open('old.sqlite');
  const raw = new Database(oldPath, { readonly: true });
  try {
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare('SELECT version FROM derived_version').pluck().all()).toEqual([DERIVED_VERSION]);
    expect(raw.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger')").all()).toEqual([]);
    expect(raw.prepare('SELECT COUNT(*) FROM files').pluck().get()).toBe(0);
    // Byte for byte, but the columns step 29 added: each file's agent and headless mark (the fixture's `files`
    // rows name the paths before the move, so none is known yet: those read again from disk get theirs).
    expect(archiveRows(raw, true, false, STEP_29)).toEqual(archive);
    expect(raw.prepare('SELECT DISTINCT agent, headless FROM archive_files').all()).toEqual([
      { agent: null, headless: 0 },
    ]);
    const withoutIds = archiveRows(raw, false, true, STEP_29);

    const report = await upgraded.refresh([home]);
    // Every file read again: the one that is gone from its archive.
    expect(report).toMatchObject({ filesParsed: report.files, archivedFiles: 1, sessions: 28 });
    expect(archiveRows(raw, false, true, STEP_29)).toEqual(withoutIds);
  } finally {
    raw.close();
  }
  const actual = await shown(upgraded);
  // Part by part, as JSON: a failing deep comparison of the whole would take minutes to print its difference.
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    expect(JSON.stringify(actual[key], null, 1), key).toBe(JSON.stringify(expected[key], null, 1));
  }
});

it('rebuilds the derived tables of an older derived version, keeping the archive; the warm path waits for it', async () => {
  const dbPath = join(dir, 'index.sqlite');
  const index = open('index.sqlite');
  const first = await index.refresh([home]);
  index.close();
  opened.length = 0;
  // An older build's derived DDL wrote this index: its version, and a table this build does not know (a newer one's
  // is refused: agent-index-file.test.ts).
  const other = new Database(dbPath);
  other.exec('UPDATE derived_version SET version = version - 1; CREATE TABLE earlier_derived (x INTEGER)');
  const archive = archiveRows(other);
  other.close();
  expect(WarmIndex.open(dbPath)).toBeUndefined();

  const again = open('index.sqlite');
  const raw = new Database(dbPath, { readonly: true });
  try {
    expect(raw.prepare('SELECT version FROM derived_version').pluck().all()).toEqual([DERIVED_VERSION]);
    expect(raw.prepare("SELECT 1 FROM sqlite_master WHERE name = 'earlier_derived'").get()).toBeUndefined();
    expect(raw.prepare('SELECT COUNT(*) FROM files').pluck().get()).toBe(0);
    expect(archiveRows(raw)).toEqual(archive);
  } finally {
    raw.close();
  }
  expect(await again.refresh([home])).toMatchObject({ filesParsed: first.files, sessions: first.sessions });
  const warm = WarmIndex.open(dbPath);
  expect(warm).toBeDefined();
  warm?.close();
});
