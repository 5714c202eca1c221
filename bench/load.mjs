#!/usr/bin/env node
// API latency under 20 concurrent clients against a real `agentdash serve`, next to the same requests one at a time.
// Speed is measured here, never asserted in tests.
//
//   node bench/load.mjs [PATH…]        default: ../shared/wild and ../shared/corpus/* (else the bundled samples)
//   LOAD_CLIENTS=20 LOAD_ROUNDS=15     clients, and requests per client per route
//   LOAD_PROFILE=1                     also write a CPU profile of the server (in the temp folder, printed)
//
// The server runs as a child process (the built CLI) on 127.0.0.1 with a fresh index in a temp folder; the script
// waits for the first index build, then measures each route idle (one client) and loaded (LOAD_CLIENTS clients
// at once, every route mixed), and prints p50/p95 per route plus the server's event-loop delay over each phase
// (a preload samples it with perf_hooks and reports it on request). The sessions asked for are drawn at random,
// so most header and event-page requests load a session that is not cached, as a person browsing does.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'packages/cli/dist/bin.js');
const shared = resolve(root, '../shared');
const clients = Number(process.env.LOAD_CLIENTS || 20);
const rounds = Number(process.env.LOAD_ROUNDS || 15);
const profile = process.env.LOAD_PROFILE === '1';

const defaultPaths = () => {
  const out = [];
  if (existsSync(join(shared, 'wild'))) out.push(join(shared, 'wild'));
  const corpus = join(shared, 'corpus');
  if (existsSync(corpus)) {
    for (const v of readdirSync(corpus))
      if (existsSync(join(corpus, v, 'claude-home'))) out.push(join(corpus, v, 'claude-home'));
  }
  return out.length > 0 ? out : [join(root, 'packages/cli/samples/claude-home')];
};
const paths = process.argv.length > 2 ? process.argv.slice(2).map((p) => resolve(p)) : defaultPaths();

const work = mkdtempSync(join(tmpdir(), 'agentdash-load-'));
// The event-loop monitor: a preload in the server process; `SIGUSR2` makes it print and reset its histogram.
const monitor = join(work, 'loop-monitor.mjs');
writeFileSync(
  monitor,
  `import { monitorEventLoopDelay } from 'node:perf_hooks';
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => Math.round(ns / 1e6);
  process.stderr.write('LOOP ' + JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) }) + '\\n');
  h.reset();
});
`,
);

const ms = (n) => `${Math.round(n)} ms`;
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

const nodeArgs = ['--import', monitor];
if (profile) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${work}`);
const server = spawn(
  process.execPath,
  [...nodeArgs, bin, 'serve', ...paths, '--port', '0', '--json', '--db', join(work, 'index.sqlite')],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
);
let stderr = '';
const loopReports = [];
server.stderr.on('data', (d) => {
  stderr += d;
  for (const m of String(d).matchAll(/LOOP (\{.*\})/g)) loopReports.push(JSON.parse(m[1]));
});
const url = await new Promise((done, fail) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /"url":\s*"([^"]+)"/.exec(out);
    if (m) done(m[1].replace(/\/$/, ''));
  });
  server.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
});
const base = url.replace(/\/\/[^/:]+:/, '//127.0.0.1:');

const getJson = async (path) => {
  const res = await fetch(base + path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
};

// Wait for the first build to finish.
for (let i = 0; i < 600; i++) {
  const health = await getJson('/api/health');
  if (health.index?.state === 'ready') break;
  await new Promise((r) => setTimeout(r, 500));
}
const list = await getJson('/api/sessions?limit=1000');
const ids = list.sessions.map((s) => s.id);
console.error(`serving ${paths.length} paths, ${list.total} sessions at ${base}; ${clients} clients, ${rounds} rounds`);

const words = ['error', 'test', 'function', 'import', 'npm', 'git', 'file', 'build', 'fix', 'the'];
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const enc = encodeURIComponent;

/** One request per route; each returns when its answer is read (SSE: when the hello event arrives). */
const routes = {
  'sessions list': () => getJson('/api/sessions?limit=200'),
  'sessions list, sorted by cost': () => getJson('/api/sessions?limit=200&sort=costUsd'),
  'session header': () => getJson(`/api/sessions/${enc(pick(ids))}`),
  'event page': () => getJson(`/api/sessions/${enc(pick(ids))}/events?offset=0&limit=100`),
  search: () => getJson(`/api/sessions?q=${enc(pick(words))}`),
  stats: () => getJson('/api/stats'),
  usage: () => getJson('/api/usage'),
  'SSE hello': async () => {
    const ac = new AbortController();
    const res = await fetch(`${base}/api/events`, { signal: ac.signal });
    const reader = res.body.getReader();
    let text = '';
    while (!text.includes('event: hello')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ac.abort();
  },
};

async function timed(fn) {
  const t0 = performance.now();
  try {
    await fn();
    return { ms: performance.now() - t0, ok: true };
  } catch (error) {
    return { ms: performance.now() - t0, ok: false, error: String(error) };
  }
}

const loopNow = () =>
  new Promise((done) => {
    const n = loopReports.length;
    server.kill('SIGUSR2');
    const wait = () => (loopReports.length > n ? done(loopReports.at(-1)) : setTimeout(wait, 20));
    wait();
  });

async function phase(name, concurrency) {
  await loopNow(); // reset
  const results = Object.fromEntries(Object.keys(routes).map((k) => [k, []]));
  let failures = 0;
  const client = async () => {
    for (let r = 0; r < rounds; r++) {
      // every route once per round, in a random order per client
      const order = Object.keys(routes).sort(() => Math.random() - 0.5);
      for (const route of order) {
        const t = await timed(routes[route]);
        if (t.ok) results[route].push(t.ms);
        else failures++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const wall = performance.now() - t0;
  const loop = await loopNow();
  return { name, results, failures, wall, loop };
}

// Warm up (workers, caches, JIT) before measuring.
for (const route of Object.keys(routes)) await timed(routes[route]);

const idle = await phase('idle', 1);
const loaded = await phase('loaded', clients);

console.log(`\n| route | idle p50 | idle p95 | ${clients} clients p50 | ${clients} clients p95 | ratio p95 |`);
console.log('|---|---:|---:|---:|---:|---:|');
const all = { idle: [], loaded: [] };
for (const route of Object.keys(routes)) {
  const a = idle.results[route];
  const b = loaded.results[route];
  all.idle.push(...a);
  all.loaded.push(...b);
  console.log(
    `| ${route} | ${ms(pct(a, 50))} | ${ms(pct(a, 95))} | ${ms(pct(b, 50))} | ${ms(pct(b, 95))} | ${(pct(b, 95) / pct(a, 95)).toFixed(1)}× |`,
  );
}
console.log(
  `| all routes | ${ms(pct(all.idle, 50))} | ${ms(pct(all.idle, 95))} | ${ms(pct(all.loaded, 50))} | ${ms(pct(all.loaded, 95))} | ${(pct(all.loaded, 95) / pct(all.idle, 95)).toFixed(1)}× |`,
);
for (const p of [idle, loaded]) {
  console.log(
    `${p.name}: ${Object.values(p.results).reduce((n, r) => n + r.length, 0)} requests in ${ms(p.wall)}, ` +
      `${p.failures} failed; event-loop delay p50 ${p.loop.p50} ms, p99 ${p.loop.p99} ms, max ${p.loop.max} ms`,
  );
}

server.kill('SIGINT');
await new Promise((r) => server.once('exit', r));
if (profile) {
  const prof = readdirSync(work).find((f) => f.endsWith('.cpuprofile'));
  console.log(`CPU profile: ${prof ? join(work, prof) : '(none written)'}`);
} else rmSync(work, { recursive: true, force: true });
