#!/usr/bin/env node
// The writer's session summaries alone, in one thread: every session of an index recomputed (as a commit does) inside
// one transaction that is rolled back, several passes, CPU time of this thread per pass. A whole cold index moves by a
// fifth with the machine's load; this part of it, measured alone, moves far less, so two builds can be compared
// alternately on a shared machine. The first pass checks that the recomputed rows equal the stored ones.
// Usage: npm run build, then node bench/recompute.mjs <index.sqlite> [passes] (the file is opened read-write, never
// changed: pass a copy of an index built by `agentdash index`).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2];
const passes = Number(process.argv[3] ?? 5);
if (file === undefined) {
  console.error('usage: node bench/recompute.mjs <index.sqlite> [passes]');
  process.exit(2);
}
const Database = createRequire(join(root, 'packages/index/package.json'))('better-sqlite3');
const { SessionUpdater } = await import(join(root, 'packages/index/dist/write/sessions.js'));

const db = new Database(file);
db.pragma('cache_size = -32768');
const sessions = db.prepare('SELECT DISTINCT session_id FROM files').pluck().all();
const rowsOf = () => JSON.stringify(db.prepare('SELECT * FROM sessions ORDER BY id').raw().all());
const stored = rowsOf();
const updater = new SessionUpdater(db);
const times = [];
for (let pass = 0; pass < passes; pass++) {
  db.exec('BEGIN');
  try {
    const start = process.cpuUsage();
    for (const sid of sessions) updater.recompute(sid);
    const spent = process.cpuUsage(start);
    times.push(Math.round((spent.user + spent.system) / 1000));
    if (pass === 0 && rowsOf() !== stored) {
      console.error('the recomputed sessions differ from the stored ones');
      process.exitCode = 1;
    }
  } finally {
    db.exec('ROLLBACK');
  }
}
db.close();
console.log(`${sessions.length} sessions recomputed; CPU ms per pass: ${times.join(', ')}`);
