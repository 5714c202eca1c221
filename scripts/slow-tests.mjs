#!/usr/bin/env node
/**
 * `npm run test:slow-list`: run every non-browser suite once with Vitest's JSON reporter and write the files that
 * took more than a second (or failed to run within the fast loop's limits) to test/slow-tests.json, the list the fast
 * loop (`npm run test:fast`) leaves out. Run it when the fast loop grows past a minute.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const LIMIT_MS = 1_000;
const dir = mkdtempSync(join(tmpdir(), 'agentdash-slow-tests-'));
const out = join(dir, 'report.json');
// Each project with its `NAME:isolated` sibling (the files that mock a module), when it has one.
const projects = ['core', 'index', 'server', 'team', 'cli', 'web'].flatMap((p) => [
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
const slow = report.testResults
  .filter((file) => file.endTime - file.startTime > LIMIT_MS || file.status !== 'passed')
  .map((file) => relative(repo, file.name))
  .sort();
writeFileSync(join(repo, 'test/slow-tests.json'), `${JSON.stringify(slow, null, 2)}\n`);
process.stdout.write(`${slow.length} of ${report.testResults.length} files are slow (over ${LIMIT_MS} ms) or failed\n`);
process.exitCode = run.status ?? 1;
