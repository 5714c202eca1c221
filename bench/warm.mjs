// The warm path only: build (or reuse) the bench home and its index, then time whole processes on it, nothing
// changed: `index`, `stats --json`, `sessions --json` and ccusage `daily --offline --json` on the same folder.
//
//   npm run bench -- warm            (BENCH_GIB, AGENTDASH_BENCH_CACHE and BENCH_RUNS as for the full bench)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildHome } from './home.mjs';
import { bin, cache, gib, sources } from './setup.mjs';

const runs = Number(process.env.BENCH_RUNS || 5);

const home = buildHome(sources, join(cache, `home-${gib}gib-v1`), gib * 2 ** 30);
// The index is kept next to the home (built once): a warm run needs a database that is already complete.
const db = join(cache, `warm-${gib}gib.sqlite`);

function time(command, args, env = {}) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 30, encoding: 'utf8' });
  const elapsed = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(0, 400)}`);
  return elapsed;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const agentdash = (...args) => time(process.execPath, [bin, ...args, home.home, '--db', db, '--no-progress']);

console.error(`home: ${home.files} files, ${(home.bytes / 2 ** 20).toFixed(0)} MB; db ${db}`);
const cold = agentdash('index', '--json');
console.error(`first index: ${Math.round(cold)} ms`);

const ccusageBin = join(cache, 'ccusage/node_modules/ccusage/src/cli.js');
const figures = {
  'warm `index`': () => agentdash('index', '--json'),
  'warm `stats --json`': () => agentdash('stats', '--json'),
  'warm `sessions --json`': () => agentdash('sessions', '--json'),
};
if (existsSync(ccusageBin))
  figures['ccusage `daily --offline --json`'] = () =>
    time(process.execPath, [ccusageBin, 'daily', '--offline', '--json'], { CLAUDE_CONFIG_DIR: home.home });
else console.error(`ccusage not found at ${ccusageBin} (the full bench installs it)`);

const results = {};
for (const [name, run] of Object.entries(figures)) {
  const xs = [];
  for (let i = 0; i < runs; i++) xs.push(run());
  results[name] = median(xs);
  console.error(`  ${name}: median ${Math.round(results[name])} ms of ${xs.map(Math.round).join(', ')}`);
}
const cc = results['ccusage `daily --offline --json`'];
const stats = results['warm `stats --json`'];
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${home.files} files`,
);
console.log('| figure | median |\n|---|---:|');
for (const [name, value] of Object.entries(results)) console.log(`| ${name} | ${Math.round(value)} ms |`);
if (cc !== undefined) console.log(`\nstats is ${(cc / stats).toFixed(1)}× faster than ccusage`);
