/**
 * A disk full while the index is written (a review helper filled a 3 MB file system): SQLite's "database or disk is
 * full" was reported as an internal error, a bug to report (exit 1). It is the index's path that cannot be used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainDamage } from '@agentdash/index/warm';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { classify, ExitCode } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-disk-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's own error of a full database: its pages capped, as a full disk caps them. */
function sqliteFull(): unknown {
  const db = new Database(join(dir, 'full.sqlite'));
  try {
    db.pragma('max_page_count = 8');
    db.exec('CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 1000; i++) insert.run('x'.repeat(4000));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('the database never filled');
}

it('says the disk is full, names the index, and exits 3 (a path problem), not 1', () => {
  const error = sqliteFull();
  expect((error as { code?: string }).code).toBe('SQLITE_FULL');
  const said = classify(explainDamage('/home/me/.local/share/agentdash/index.sqlite', error));
  expect(said.code).toBe(ExitCode.badPath);
  expect(said.message).toBe(
    'cannot use /home/me/.local/share/agentdash/index.sqlite as the index database: the disk is full (database or disk is full): free some space, then run it again; nothing archived is lost',
  );
});

// A review helper made the index file read-only (0444, its folder writable) to another user: every command that
// writes answered "internal error: attempt to write a readonly database (this is a bug …)", exit 1.
it('says a read-only index cannot be written, names it, and exits 3 (a path problem), not 1', () => {
  const path = join(dir, 'read-only.sqlite');
  new Database(path).exec('CREATE TABLE t (x TEXT)');
  const db = new Database(path, { readonly: true });
  let error: unknown;
  try {
    db.exec("INSERT INTO t VALUES ('x')");
  } catch (caught) {
    error = caught;
  } finally {
    db.close();
  }
  expect((error as { code?: string }).code).toMatch(/^SQLITE_READONLY/);
  const said = classify(explainDamage(path, error));
  expect(said.code).toBe(ExitCode.badPath);
  expect(said.message).toBe(
    `cannot use ${path} as the index database: it cannot be written (attempt to write a readonly database): make it and its folder writable by this user, or choose another --db path`,
  );
});
