import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileRow } from '../file-row.js';
import { openIndex } from '../index.js';
import { Writer } from './import.js';
import { OP, type Op } from './row-ops.js';

let dir: string;
let db: Database.Database;
let writer: Writer;
let files: FileRow[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-texts-'));
  const dbPath = join(dir, 'index.sqlite');
  openIndex({ dbPath }).close();
  db = new Database(dbPath);
  const insert = db.prepare(
    `INSERT INTO files (path, project_dir, role, session_id, agent_id, meta_path, size, mtime_ms, ino, agent)
     VALUES (?, '/p', 'main', ?, NULL, NULL, 0, 0, 0, 'claude')`,
  );
  files = ['a', 'b'].map((name) => {
    const id = Number(insert.run(`/p/${name}.jsonl`, `/p/${name}`).lastInsertRowid);
    return db.prepare('SELECT * FROM files WHERE id = ?').get(id) as FileRow;
  });
  writer = new Writer(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A prompt's searchable text, as a parse worker posts it. */
const promptDoc = (line: number, text: string): Op[] => [
  [OP.begin],
  [OP.doc, line, 0, 0, null, null, '1', null, null, null, Buffer.from(text, 'utf8'), [], 'prompt'],
];

const found = (word: string) =>
  db.prepare('SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?').pluck().get(word) as number;

describe("the writer's held-back texts", () => {
  it('are searchable after a later file rolls back a savepoint in which they were flushed', () => {
    const counts = { records: 0, issues: 0 };
    db.exec('BEGIN');
    writer.apply(files[0] as FileRow, promptDoc(1, 'alpha kept'), new Set(), counts);
    const later = writer.savepoint('later_file');
    writer.apply(files[1] as FileRow, promptDoc(1, 'beta dropped'), new Set(), counts);
    // A flush inside the later file's savepoint (a restart clears a file first; or the held texts grew too large).
    writer.flushTexts();
    later.rollback();
    writer.flushTexts();
    db.exec('COMMIT');
    writer.endTransaction();
    expect([found('alpha'), found('beta')]).toEqual([1, 0]);
    expect(db.prepare('SELECT count(*) FROM docs').pluck().get()).toBe(1);
  });

  it('inserted before a savepoint that rolls back stay indexed once', () => {
    const counts = { records: 0, issues: 0 };
    db.exec('BEGIN');
    writer.apply(files[0] as FileRow, promptDoc(1, 'gamma once'), new Set(), counts);
    writer.flushTexts();
    const later = writer.savepoint('later_file');
    writer.apply(files[1] as FileRow, promptDoc(1, 'delta dropped'), new Set(), counts);
    later.rollback();
    writer.flushTexts();
    db.exec('COMMIT');
    writer.endTransaction();
    expect([found('gamma'), found('delta')]).toEqual([1, 0]);
  });
});
