import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, resetDerivedData, STRINGS_VERSION } from './schema.js';

let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-strings-'));
  db = new Database(join(dir, 'index.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const RECORDS = `SELECT file_id, line, kind, uuid, ts, ts_ms, cwd, version, git_branch, model, message_id, is_sidechain,
  is_synthetic, is_prompt, input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens, request_id,
  cache_1h_tokens, reasoning_tokens, request_ref FROM records ORDER BY file_id, line`;
const RESPONSES = `SELECT session_id, key, message_id, agent_id, model, ts_ms, input_tokens, output_tokens,
  cache_creation_tokens, cache_1h_tokens, cache_read_tokens, reasoning_tokens FROM responses ORDER BY session_id, key`;

const insertRecord = (line: number, cwd: string | null, model: string | null) =>
  db
    .prepare(
      `INSERT OR IGNORE INTO records (file_id, line, kind_raw, uuid_raw, ts_text, ts_ms, cwd, version, git_branch,
         model, message_id, input_tokens, output_tokens)
       VALUES (1, ?, '2', NULL, NULL, ?, ?, '2.1.0', 'main', ?, ?, 3, 4)`,
    )
    .run(line, 1_700_000_000_000 + line, cwd, model, `msg_${line}`);

describe('schema step "strings"', () => {
  it('converts records and responses in place: readers see the same rows, each text stored once', () => {
    migrate(db, STRINGS_VERSION - 1);
    db.prepare(
      `INSERT INTO files (id, path, project_dir, role, session_id) VALUES (1, '/p/s.jsonl', '/p', 'main', '/p/s')`,
    ).run();
    insertRecord(1, '/work/project', 'claude-opus-4-5');
    insertRecord(2, '/work/project', null);
    insertRecord(3, null, 'claude-opus-4-5');
    db.prepare(
      `INSERT INTO responses (session_id, key, message_id, agent_id, model, ts_ms, input_tokens, output_tokens,
         cache_creation_tokens, cache_1h_tokens, cache_read_tokens, reasoning_tokens)
       VALUES ('/p/s', 'msg_1', 'msg_1', NULL, 'claude-opus-4-5', 1, 3, 4, 0, 0, 5, 0),
              ('/p/s', 'msg_3', 'msg_3', 'a1', 'claude-opus-4-5', 3, 1, 2, 0, 0, 0, 0)`,
    ).run();
    const before = { records: db.prepare(RECORDS).all(), responses: db.prepare(RESPONSES).all() };

    migrate(db, STRINGS_VERSION);
    expect({ records: db.prepare(RECORDS).all(), responses: db.prepare(RESPONSES).all() }).toEqual(before);
    expect(db.prepare('SELECT text FROM strings ORDER BY text').pluck().all()).toEqual([
      '/p/s',
      '/work/project',
      '2.1.0',
      'claude-opus-4-5',
      'main',
    ]);
  });

  it('stores a record written through the view once with its texts, ignores a second write of its line, deletes through the view', () => {
    migrate(db);
    db.prepare(
      `INSERT INTO files (id, path, project_dir, role, session_id) VALUES (1, '/p/s.jsonl', '/p', 'main', '/p/s')`,
    ).run();
    insertRecord(1, '/a', 'm');
    insertRecord(1, '/b', 'n');
    insertRecord(2, '/a', null);
    expect(db.prepare('SELECT line, cwd, model, version, git_branch FROM records ORDER BY line').all()).toEqual([
      { line: 1, cwd: '/a', model: 'm', version: '2.1.0', git_branch: 'main' },
      { line: 2, cwd: '/a', model: null, version: '2.1.0', git_branch: 'main' },
    ]);
    expect(db.prepare('SELECT count(*) FROM record_rows').pluck().get()).toBe(2);
    db.prepare('DELETE FROM records WHERE file_id = 1 AND line = 2').run();
    expect(db.prepare('SELECT line FROM record_rows').pluck().all()).toEqual([1]);
    resetDerivedData(db);
    expect(db.prepare('SELECT (SELECT count(*) FROM record_rows) + (SELECT count(*) FROM strings)').pluck().get()).toBe(
      0,
    );
  });
});
