import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from '@agentdash/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { type AgentIndex, openIndex } from '../index.js';
import { ARCHIVE_TABLES, migrate, resetDerivedData, SCHEMA_VERSION } from '../schema/schema.js';
import { ARCHIVE_STEPS } from '../schema/schema-archive.js';
import { ARCHIVE_SIZE } from './archive.js';
import { CODEC } from './archive-codec.js';

let dir: string;
let home: string;
let dbPath: string;
let index: AgentIndex;

beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-archive-'));
  dbPath = join(dir, 'index.sqlite');
  index = openIndex({ dbPath });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a user sees of a session: its calls, events, subagents' events and issues (paths included). */
function complete(session: Session) {
  return {
    id: session.id,
    title: session.title,
    calls: session.calls,
    events: session.events,
    subagents: session.subagents.map((s) => ({ key: s.key, meta: s.meta, events: s.events })),
    issues: session.issues,
    usage: session.usageByModel,
  };
}

async function everything(ix: AgentIndex) {
  const sessions = ix.listSessions();
  return {
    summaries: sessions.map(({ isLive: _live, archived: _archived, ...rest }) => rest),
    loaded: await Promise.all(sessions.map(async (s) => complete(await ix.loadSession(s.id)))),
    stats: ix.stats(),
    search: await ix.search('file'),
  };
}

describe('archive', () => {
  it('keeps every session complete after its files are deleted: same summaries, calls, events, stats and search', async () => {
    await index.refresh([home]);
    const before = await everything(index);
    expect(before.summaries.length).toBeGreaterThan(5);
    expect(index.listSessions().some((s) => s.archived)).toBe(false);

    rmSync(join(home, 'projects'), { recursive: true });
    const report = await index.refresh([home]);
    expect(report).toMatchObject({ filesRemoved: 0, filesParsed: 0, archivedFiles: report.files });
    expect(index.listSessions().every((s) => s.archived)).toBe(true);
    expect(await everything(index)).toEqual(before);
  });

  it('keeps a session whose main file is empty as it was once its files are deleted: nothing said lost', async () => {
    // As ../shared/wild's pmsynapse-1 holds one: a 0-byte main file, its subagent's file beside it (2.0 layout). Its
    // main file, gone, read as "unreadable: no such file and nothing archived": an empty file has nothing to archive.
    const project = join(home, 'projects', '-home-user-proj-empty');
    const sid = '5e55e55e-0000-4000-8000-000000000001';
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${sid}.jsonl`), '');
    const agent = readFileSync(join(home, 'projects', '-home-user-proj-subagents', 'agent-ae0b871.jsonl'), 'utf8');
    writeFileSync(join(project, 'agent-ae0b871.jsonl'), agent.replaceAll('3d438771-f9d6-4a92-9daa-79a2c6f7cc27', sid));
    await index.refresh([home]);
    const before = complete(await index.loadSession(sid));
    rmSync(join(home, 'projects'), { recursive: true });
    await index.refresh([home]);
    expect(complete(await index.loadSession(sid))).toEqual(before);
  });

  it('rebuilds everything derived from the archive alone, without the sources', async () => {
    await index.refresh([home]);
    const before = await everything(index);
    index.close();
    rmSync(join(home, 'projects'), { recursive: true });
    const db = new Database(dbPath);
    resetDerivedData(db);
    expect(db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);
    db.close();

    index = openIndex({ dbPath });
    const report = await index.refresh([home]);
    expect(report.filesParsed).toBe(report.files);
    expect(await everything(index)).toEqual(before);
  });

  it("sums the archive's sizes from its index of chunk sizes, as the chunks hold them", async () => {
    await index.refresh([home]);
    const db = new Database(dbPath, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${ARCHIVE_SIZE}`).all() as { detail: string }[]).map(
        (r) => r.detail,
      );
      expect(plan).toContain('SCAN archive_chunks USING COVERING INDEX archive_chunk_sizes');
      const direct = db
        .prepare('SELECT sum(length) AS raw, sum(length(CAST(data AS BLOB))) AS stored FROM archive_chunks NOT INDEXED')
        .get() as { raw: number; stored: number };
      expect(direct.stored).toBeGreaterThan(0);
      expect(index.archiveSize()).toMatchObject(direct);
    } finally {
      db.close();
    }
  });

  it('a schema migration keeps the archived bytes', () => {
    const db = new Database(join(dir, 'migrate.sqlite'));
    // An index as schema version 6 left it: the archive's first tables beside derived ones of that time (a view and
    // a trigger among them), which the migration drops.
    for (const step of ARCHIVE_STEPS) if (step.version <= 6) db.exec(step.sql);
    db.exec(`CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
      CREATE TABLE docs (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE);
      CREATE VIEW docs_text AS SELECT id FROM docs;
      CREATE TRIGGER docs_ad AFTER DELETE ON docs BEGIN SELECT 1; END;
      INSERT INTO files (id, path) VALUES (1, '/p/s.jsonl'); INSERT INTO docs (file_id) VALUES (1);
      PRAGMA user_version = 6;`);
    db.prepare(
      `INSERT INTO archive_files (path, project_dir, role, session_id, agent_id, meta_path, file_size, mtime_ms, ino)
       VALUES ('/p/s.jsonl', '/p', 'main', 's', NULL, NULL, 3, 1, 1)`,
    ).run();
    db.prepare(`INSERT INTO archive_chunks (path, offset, length, data) VALUES ('/p/s.jsonl', 0, 3, x'010203')`).run();
    db.prepare(`INSERT INTO settings (key, value) VALUES ('archive', 'off')`).run();
    // Archive tables made by later steps (the versions kept beside files) are empty then, and kept empty.
    const tables = ARCHIVE_TABLES.filter(
      (t) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) !== undefined,
    );
    const rows = () => tables.map((t) => db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]);
    const kept = rows();
    // The rows as they were: columns added by later steps (a chunk's codec) are left out of the comparison.
    const snapshot = () =>
      rows().map((table, t) =>
        table.map((row) => Object.fromEntries(Object.keys(kept[t]?.[0] ?? row).map((k) => [k, row[k]]))),
      );
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(snapshot()).toEqual(kept);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type IN ('view', 'trigger')").all()).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM files').pluck().get()).toBe(0);
    // Chunks stored before chunks named their codec are brotli's.
    expect(db.prepare('SELECT codec FROM archive_chunks').pluck().all()).toEqual([CODEC.brotli]);
    resetDerivedData(db);
    expect(snapshot()).toEqual(kept);
    db.close();
  });

  it('forgetting a session deletes its archived bytes; a session whose files are gone leaves the index', async () => {
    await index.refresh([home]);
    const [gone, kept] = index.listSessions();
    if (gone === undefined || kept === undefined) throw new Error('samples have sessions');
    for (const file of gone.files) rmSync(file.path);
    await index.refresh([home]);
    expect(index.getSession(gone.id)?.archived).toBe(true);

    const forgotten = await index.forgetSession(gone.id);
    expect(forgotten.filesRemoved).toBe(gone.files.length);
    expect(forgotten.bytes).toBeGreaterThan(0);
    expect(index.getSession(gone.id)).toBeUndefined();
    // A session still on disk stays listed (read from disk), without archived bytes.
    const onDisk = await index.forgetSession(kept.id);
    expect(onDisk.filesRemoved).toBe(0);
    expect(index.getSession(kept.id)?.archived).toBe(false);
    const after = await index.refresh([home]);
    expect(after.sessions).toBe(index.listSessions().length);
    expect(index.getSession(gone.id)).toBeUndefined();
  });

  it('with archiving off, nothing is archived and a deleted file leaves the index', async () => {
    index.setArchiving(false);
    expect(index.archiving()).toBe(false);
    await index.refresh([home]);
    expect(index.archiveSize()).toEqual({ files: 0, raw: 0, stored: 0, versions: 0 });
    const [first] = index.listSessions();
    for (const file of first?.files ?? []) rmSync(file.path);
    await index.refresh([home]);
    expect(first && index.getSession(first.id)).toBeUndefined();
  });

  it('archives files indexed before archiving was on, on the next refresh, without parsing them again', async () => {
    await index.refresh([home], { archive: false });
    expect(index.archiveSize().raw).toBe(0);
    const report = await index.refresh([home]);
    expect(report.filesParsed).toBe(0);
    const size = index.archiveSize();
    const files = index.listSessions().flatMap((s) => s.files);
    expect(size.files).toBe(files.length);
    expect(size.stored).toBeLessThan(size.raw / 4);
  });

  it('archives an unfinished last line once it is complete, in appended chunks', async () => {
    await index.refresh([home]);
    const [session] = index.listSessions().filter((s) => s.toolCalls > 0);
    const main = session?.files.find((f) => f.role === 'main');
    if (session === undefined || main === undefined) throw new Error('samples have a session with calls');
    const lines = readFileSync(main.path, 'utf8').trimEnd().split('\n');
    const last = (lines.at(-1) ?? '').replace(/"uuid":"[^"]+"/, '"uuid":"appended-in-two-parts"');
    const cut = Math.floor(last.length / 2);
    appendFileSync(main.path, last.slice(0, cut));
    await index.refresh([home]);
    appendFileSync(main.path, `${last.slice(cut)}\n`);
    await index.refresh([home]);
    const before = complete(await index.loadSession(session.id));
    const bytes = readFileSync(main.path);

    rmSync(main.path);
    await index.refresh([home]);
    expect(complete(await index.loadSession(session.id))).toEqual(before);
    const db = new Database(dbPath, { readonly: true });
    const chunks = db
      .prepare('SELECT offset, length FROM archive_chunks WHERE path = ? ORDER BY offset')
      .all(main.path) as { offset: number; length: number }[];
    db.close();
    // Contiguous from byte 0 to the end of the file, one chunk per read.
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.reduce((end, c) => (c.offset === end ? end + c.length : -1), 0)).toBe(bytes.length);
  });
});
