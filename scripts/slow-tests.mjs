#!/usr/bin/env node
/**
 * `npm run test:slow-list`: run every non-browser suite once with Vitest's JSON reporter and write the files that
 * took more than a second (or failed to run within the fast loop's limits) to test/slow-tests.json, the list the fast
 * loop (`npm run test:fast`) leaves out. Run it when the fast loop grows past a minute. Every file's time goes to
 * test/file-times.json, which orders a run's files longest first (test/sequencer.ts); the Chromium suites' times
 * there are kept as they were (`-- --browser` runs them too and records theirs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const LIMIT_MS = 1_000;
const dir = mkdtempSync(join(tmpdir(), 'agentdash-slow-tests-'));
const out = join(dir, 'report.json');
// Each project with its `NAME:isolated` sibling (the files that mock a module), when it has one.
const browser = process.argv.includes('--browser');
const projects = ['core', 'index', 'server', 'team', 'cli', 'web', ...(browser ? ['e2e'] : [])].flatMap((p) => [
  '--project',
  p,
  '--project',
  `${p}:*`,
]);
const run = spawnSync('npx', ['vitest', 'run', ...projects, '--reporter=json', `--outputFile=${out}`], {
  cwd: repo,
  env: { ...process.env, TZ: 'UTC' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const report = JSON.parse(readFileSync(out, 'utf8'));
rmSync(dir, { recursive: true, force: true });
const ran = report.testResults.filter((file) => !browser || !file.name.includes('/e2e/'));
const slow = ran
  .filter((file) => file.endTime - file.startTime > LIMIT_MS || file.status !== 'passed')
  .map((file) => relative(repo, file.name))
  .sort();
writeFileSync(join(repo, 'test/slow-tests.json'), `${JSON.stringify(slow, null, 2)}\n`);
writeFileSync(join(repo, 'test/file-times.json'), `${JSON.stringify(fileTimes(report.testResults), null, 2)}\n`);
/** Every file's time (to 100 ms, at least 100), with the recorded times of the files not run here that still exist. */
function fileTimes(results) {
  const path = join(repo, 'test/file-times.json');
  let before = {};
  try {
    before = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // None recorded yet.
  }
  const times = Object.fromEntries(Object.entries(before).filter(([file]) => existsSync(join(repo, file))));
  for (const file of results)
    times[relative(repo, file.name)] = Math.max(100, Math.round((file.endTime - file.startTime) / 100) * 100);
  return Object.fromEntries(Object.entries(times).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

process.stdout.write(`${slow.length} of ${report.testResults.length} files are slow (over ${LIMIT_MS} ms) or failed\n`);
process.exitCode = run.status ?? 1;
