#!/usr/bin/env node
/**
 * `npm run test:slow-list`: run every non-browser suite once with Vitest's JSON reporter and write the files that
 * took more than a second, failed, or take an index from the run's cache to test/slow-tests.json, the list the fast
 * loop (`npm run test:fast`) leaves out; then run the fast loop and add what fails there, until it passes. Run it
 * when the fast loop grows past a minute. Every file's time goes to
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
const ran = report.testResults.filter((file) => !browser || !file.name.includes('/e2e/'));
// A file that takes its index from the run's cache (`@agentdash/testing/index-cache`) is quick when an earlier file
// built that index, and builds it alone in the fast loop: it is slow whatever its time here.
const cached = (file) => readFileSync(file.name, 'utf8').includes('@agentdash/testing/index-cache');
const slow = ran
  .filter((file) => file.endTime - file.startTime > LIMIT_MS || file.status !== 'passed' || cached(file))
  .map((file) => relative(repo, file.name))
  .sort();
writeFileSync(join(repo, 'test/file-times.json'), `${JSON.stringify(fileTimes(report.testResults), null, 2)}\n`);
// Then the fast loop is run on the list, and each file that fails there (over its limits) joins it, until it passes.
try {
  for (let round = 1; ; round += 1) {
    writeFileSync(join(repo, 'test/slow-tests.json'), `${JSON.stringify(slow, null, 2)}\n`);
    const failed = fastLoopFailures(round);
    if (failed.length === 0) break;
    if (round === 3) throw new Error(`the fast loop still fails after ${round} rounds: ${failed.join(', ')}`);
    process.stdout.write(`the fast loop failed in ${failed.join(', ')}: added to the list\n`);
    slow.push(...failed.filter((f) => !slow.includes(f)));
    slow.sort();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The files `npm run test:fast` fails in with test/slow-tests.json as it is now. A loop that fails outside every file
 * (an error no file holds, no report written) is an error here, not a list to extend.
 */
function fastLoopFailures(round) {
  const fastOut = join(dir, `fast-${round}.json`);
  const fast = spawnSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${fastOut}`], {
    cwd: repo,
    env: { ...process.env, TZ: 'UTC', AGENTDASH_TEST_LOOP: 'fast' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(fastOut)) throw new Error(`the fast loop wrote no report (exit ${fast.status})`);
  const report = JSON.parse(readFileSync(fastOut, 'utf8'));
  const failed = report.testResults.filter((file) => file.status === 'failed').map((file) => relative(repo, file.name));
  if (failed.length === 0 && fast.status !== 0)
    throw new Error(`the fast loop failed outside any file (exit ${fast.status})`);
  return failed;
}

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
