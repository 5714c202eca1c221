// The warm path only: build (or reuse) the bench home and its index, then time whole processes on it, nothing
// changed: `index`, `stats --json`, `sessions --json`, `usage daily --json` and ccusage `daily --offline --json` on
// the same folder, with `node -e 0` in the same loop (what Node itself costs: a warm command's own time is the
// difference). Each figure: wall time min and median, and CPU time (user + system, all threads) median, of
// BENCH_RUNS runs taken in turn, so that a busy machine weighs on every figure alike.
//
//   npm run bench -- warm            (BENCH_GIB, AGENTDASH_BENCH_CACHE and BENCH_RUNS as for the full bench)
//   BENCH_WARM_DB=path               the warm index to use (default: beside the home in the cache)
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildHome } from './home.mjs';
import { bin, cache, gib, sources } from './setup.mjs';

const runs = Number(process.env.BENCH_RUNS || 10);

const home = buildHome(sources, join(cache, `home-${gib}gib-v1`), gib * 2 ** 30);
// The index is kept next to the home (built once): a warm run needs a database that is already complete.
const db = process.env.BENCH_WARM_DB || join(cache, `warm-${gib}gib.sqlite`);

// CPU time of a child: a preload writes its resource usage when it exits (all its threads, its start included).
const preload = join(cache, `cpu-${process.pid}.mjs`);
const usageFile = join(cache, `cpu-${process.pid}.json`);
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const u = process.resourceUsage();
  writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
});
`,
);

// Where `toFile` runs send their standard output: a file, not a pipe this process reads (see `time`).
const outFile = join(cache, `out-${process.pid}.txt`);

/**
 * A run of `command`: its standard output piped to this process (as a script reading it gets it), or with `toFile`
 * written to a file, so that the figure holds the command's own work and not this process's reading of a large
 * output (`spawnSync` reads a pipe 64 KiB at a time, each read a wake-up of both processes: for an answer of
 * megabytes that is the reader's time more than the command's; docs/benchmarks.md has the figures).
 */
function time(command, args, env = {}, toFile = false) {
  rmSync(usageFile, { force: true });
  const node = command === process.execPath ? ['--import', preload] : [];
  const fd = toFile ? openSync(outFile, 'w') : undefined;
  const t0 = performance.now();
  const r = spawnSync(command, [...node, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
    ...(fd === undefined ? {} : { stdio: ['ignore', fd, 'pipe'] }),
  });
  const ms = performance.now() - t0;
  if (fd !== undefined) closeSync(fd);
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(0, 400)}`);
  const cpuMs = existsSync(usageFile) ? JSON.parse(readFileSync(usageFile, 'utf8')).cpuMs : Number.NaN;
  return { ms, cpuMs };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const agentdash = (...args) => time(process.execPath, [bin, ...args, home.home, '--db', db, '--no-progress']);
const agentdashToFile = (...args) =>
  time(process.execPath, [bin, ...args, home.home, '--db', db, '--no-progress'], {}, true);

console.error(`home: ${home.files} files, ${(home.bytes / 2 ** 20).toFixed(0)} MB; db ${db}`);
const first = agentdash('index', '--json');
console.error(`first index: ${Math.round(first.ms)} ms`);
// The stored answers (stats, usage, sessions) are computed once before the timed runs.
agentdash('stats', '--json');
agentdash('usage', 'daily', '--json');
agentdash('sessions', '--json');

const ccusageBin = join(cache, 'ccusage/node_modules/ccusage/src/cli.js');
const figures = {
  '`node -e 0`': () => time(process.execPath, ['-e', '0']),
  'warm `index`': () => agentdash('index', '--json'),
  'warm `stats --json`': () => agentdash('stats', '--json'),
  'warm `sessions --json`': () => agentdash('sessions', '--json'),
  'warm `sessions --json` > file': () => agentdashToFile('sessions', '--json'),
  'warm `usage daily --json`': () => agentdash('usage', 'daily', '--json'),
};
if (existsSync(ccusageBin))
  figures['ccusage `daily --offline --json`'] = () =>
    time(process.execPath, [ccusageBin, 'daily', '--offline', '--json'], { CLAUDE_CONFIG_DIR: home.home });
else console.error(`ccusage not found at ${ccusageBin} (the full bench installs it)`);

const samples = Object.fromEntries(Object.keys(figures).map((name) => [name, []]));
const loadBefore = loadavg()[0];
for (let i = 0; i < runs; i++) for (const [name, run] of Object.entries(figures)) samples[name].push(run());
rmSync(preload, { force: true });
rmSync(usageFile, { force: true });
rmSync(outFile, { force: true });

const bare = samples['`node -e 0`'];
const bareMs = median(bare.map((s) => s.ms));
const bareCpu = median(bare.map((s) => s.cpuMs));
console.log(
  `load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}; ${home.files} files, ${(home.bytes / 2 ** 20).toFixed(0)} MB; ${runs} runs each, in turn`,
);
console.log(
  '| figure | wall min | wall median | own wall (median − node) | CPU median | own CPU |\n|---|---:|---:|---:|---:|---:|',
);
for (const [name, xs] of Object.entries(samples)) {
  const wall = xs.map((s) => s.ms);
  const cpu = median(xs.map((s) => s.cpuMs));
  const own = name === '`node -e 0`' ? '' : `${Math.round(median(wall) - bareMs)} ms`;
  const ownCpu = name === '`node -e 0`' ? '' : `${Math.round(cpu - bareCpu)} ms`;
  console.log(
    `| ${name} | ${Math.round(Math.min(...wall))} ms | ${Math.round(median(wall))} ms | ${own} | ${Math.round(cpu)} ms | ${ownCpu} |`,
  );
}
const cc = samples['ccusage `daily --offline --json`'];
if (cc !== undefined) {
  const stats = median(samples['warm `stats --json`'].map((s) => s.ms));
  console.log(`\nstats is ${(median(cc.map((s) => s.ms)) / stats).toFixed(1)}× faster than ccusage`);
}
