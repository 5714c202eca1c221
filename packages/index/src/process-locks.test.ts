/**
 * SQLite's locks on the index file are POSIX locks, the process's: closing any descriptor of the file drops them all.
 * Every `openIndex` read the file's header and created it with node:fs (open, close), so a second index open in one
 * process (`serve`'s threads, the CLI's warm connection then its index) left the first connection holding no lock
 * on the file. Another program's SQLite (a `sqlite3` read of the index) closing its connection then took itself for
 * the last one and deleted the WAL the server still wrote to: stale answers, history lost, a damaged index (a review
 * helper reproduced all three). Opening an index now never opens the database file outside SQLite.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

let dir: string;
const opened: AgentIndex[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-process-locks-'));
});
afterEach(() => {
  for (const index of opened.splice(0)) index.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another process opens the index with SQLite, reads it and closes it, as `sqlite3 index.db 'select …'` does: Python's
 * SQLite (the system's library), else this build's (a newer SQLite, which also checks the WAL index's lock).
 */
function readElsewhere(dbPath: string): void {
  const python = spawnSync(
    'python3',
    [
      '-c',
      'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("select count(*) from files"); c.close()',
      dbPath,
    ],
    { encoding: 'utf8' },
  );
  if (python.status === 0) return;
  const addon = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `const D = require(${JSON.stringify(addon)}); const db = new D(${JSON.stringify(dbPath)});
    db.prepare('SELECT COUNT(*) FROM files').get(); db.close();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

it("a second index open in the process keeps the first one's lock: another program's read leaves the WAL", () => {
  const dbPath = join(dir, 'index.sqlite');
  const first = openIndex({ dbPath });
  opened.push(first);
  first.listSessions({});
  opened.push(openIndex({ dbPath }));
  first.listSessions({});
  expect(existsSync(`${dbPath}-wal`)).toBe(true);
  readElsewhere(dbPath);
  // The last connection to close deletes the WAL; ours are open, so it is not the last.
  expect(existsSync(`${dbPath}-wal`)).toBe(true);
});

it('still refuses a file that is not a database, and leaves it as it was', () => {
  const dbPath = join(dir, 'notes.txt');
  writeFileSync(dbPath, 'my notes, not an index\n');
  expect(() => openIndex({ dbPath })).toThrow(/does not start with the SQLite header/);
  expect(existsSync(`${dbPath}-wal`)).toBe(false);
});
