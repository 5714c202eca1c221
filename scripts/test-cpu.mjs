#!/usr/bin/env node
/**
 * `npm run test:cpu [-- vitest arguments]`: where the test run's CPU goes. Runs the suites (every project, as `npm
 * test` does, the Chromium suites one file at a time so that Chromium's time is one file's) with test/file-cpu.ts
 * recording each file's CPU time: the worker's own, its child processes' and Chromium's. Prints the files that cost
 * most, the totals by package, and what the run cost beside them (Vitest's own process, PostgreSQL, the global setups:
 * the machine's busy time less the files'). Linux only for the children's, Chromium's and the machine's times.
 * `--top N` shows N files (default 30); `--json FILE` writes every file's figures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const top = Number(option('--top') ?? 30);
const jsonOut = option('--json');

/** The machine's busy CPU milliseconds so far (every core; `undefined` where /proc/stat cannot tell). */
function busyMs() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user, nice, system, irq, softirq, steal: everything but idle and iowait
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    return (user + nice + system + irq + softirq + (steal ?? 0)) * 10;
  } catch {
    return undefined;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'agentdash-test-cpu-'));
const file = join(dir, 'files.jsonl');
const busy0 = busyMs();
const t0 = performance.now();
const run = spawnSync('npx', ['vitest', 'run', ...args], {
  cwd: repo,
  env: { ...process.env, TZ: 'UTC', AGENTDASH_TEST_CPU: file, AGENTDASH_TEST_E2E_WORKERS: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const wallMs = performance.now() - t0;
const busy1 = busyMs();
const busy = busy1 === undefined || busy0 === undefined ? undefined : busy1 - busy0;
let rows;
try {
  rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
    .map((r) => ({ ...r, totalMs: r.ownMs + r.childrenMs + r.chromiumMs }));
} catch {
  rows = [];
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(rows, null, 2)}\n`);

const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
const sum = (list, key) => list.reduce((total, r) => total + r[key], 0);
rows.sort((a, b) => b.totalMs - a.totalMs);
console.log(
  `${rows.length} files; ${s(wallMs)} s wall${busy === undefined ? '' : `, the machine busy ${s(busy)} core-s`}`,
);
console.log(`\n  total     own  children chromium   wall  file (core-s, wall s)`);
for (const r of rows.slice(0, top)) {
  console.log(`${s(r.totalMs)} ${s(r.ownMs)} ${s(r.childrenMs)} ${s(r.chromiumMs)} ${s(r.wallMs)}  ${r.file}`);
}
const byPackage = new Map();
for (const r of rows) {
  const key = r.file
    .split('/')
    .slice(0, r.file.startsWith('packages/') ? 3 : 1)
    .join('/');
  const list = byPackage.get(key) ?? [];
  list.push(r);
  byPackage.set(key, list);
}
console.log('\nby folder:');
for (const [key, list] of [...byPackage].sort((a, b) => sum(b[1], 'totalMs') - sum(a[1], 'totalMs'))) {
  console.log(
    `${s(sum(list, 'totalMs'))} ${s(sum(list, 'ownMs'))} ${s(sum(list, 'childrenMs'))} ${s(sum(list, 'chromiumMs'))}  ${key} (${list.length} files)`,
  );
}
const files = sum(rows, 'totalMs');
console.log(`\nthe files: ${s(files)} core-s`);
if (busy !== undefined)
  console.log(`beside them (Vitest, PostgreSQL, global setups, anything else running): ${s(busy - files)} core-s`);
process.exitCode = run.status ?? 1;
