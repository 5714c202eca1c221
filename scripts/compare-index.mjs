#!/usr/bin/env node
/**
 * Build an index of one agent home with two builds of the CLI and compare what they answer: `sessions --json`,
 * `stats --json` and `show --json` of every session (and the `index --json` report, its database path aside).
 * For a change to the write path that must not change behaviour.
 *
 *   node scripts/compare-index.mjs BEFORE_BIN AFTER_BIN HOME
 *
 * BEFORE_BIN and AFTER_BIN are CLI entry points (packages/cli/bin/agentdash.js, or a copy of packages/cli/bundle/bin.js
 * built from an earlier commit). Prints one line per difference and exits 1 when there is any.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [before, after, home] = process.argv.slice(2);
if (before === undefined || after === undefined || home === undefined) {
  console.error('usage: node scripts/compare-index.mjs BEFORE_BIN AFTER_BIN HOME');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'agentdash-compare-'));
// A home of its own: no agent home of the machine is read, and no setting of the user's applies.
const env = { ...process.env, HOME: dir, TZ: 'UTC', AGENTDASH_DB: '', XDG_DATA_HOME: join(dir, 'data') };

function run(bin, db, args) {
  return execFileSync(process.execPath, [bin, ...args, home, '--db', db, '--no-progress'], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
}

function answers(bin, name) {
  const db = join(dir, `${name}.sqlite`);
  const index = JSON.parse(run(bin, db, ['index', '--json']));
  delete index.db;
  delete index.claudeCleanup;
  const sessions = run(bin, db, ['sessions', '--json']);
  const out = new Map([
    ['index --json', JSON.stringify(index, null, 2)],
    ['sessions --json', sessions],
    ['stats --json', run(bin, db, ['stats', '--json'])],
  ]);
  for (const s of JSON.parse(sessions).sessions)
    out.set(`show ${s.ref} --json`, run(bin, db, ['show', s.ref, '--json']));
  return out;
}

try {
  const a = answers(before, 'before');
  const b = answers(after, 'after');
  let differences = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (a.get(key) === b.get(key)) continue;
    differences += 1;
    console.log(`differs: ${key}`);
  }
  const shows = [...a.keys()].filter((k) => k.startsWith('show ')).length;
  console.log(`${a.size} answers compared (${shows} sessions shown): ${differences} differ`);
  process.exitCode = differences === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
