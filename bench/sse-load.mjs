#!/usr/bin/env node
// The server under many open dashboards: a real `agentdash serve` over a copy of a real home (../shared/wild, else
// the bundled samples), SSE_CLIENTS event streams open (as dashboard tabs keep them), API_CLIENTS closed-loop clients
// asking the routes a dashboard asks, and one session file appended to every APPEND_MS (a live session), so change
// events reach every stream. Latency idle (one client, no streams) and loaded, and the server's RSS before the
// clients come, under load, and after they leave; idle latency again at the end. Loopback only; bounded in time
// (LOAD_SECONDS). Measured, never asserted.
//
//   node bench/sse-load.mjs [HOME]   SSE_CLIENTS=50 API_CLIENTS=20 LOAD_SECONDS=30 APPEND_MS=500
//   LOAD_BIN=path/to/agentdash.js    another build's CLI
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jsonGetter, root, servedUrl } from './setup.mjs';

const env = process.env;
const bin = env.LOAD_BIN ? resolve(env.LOAD_BIN) : join(root, 'packages/cli/bin/agentdash.js');
const sseClients = Number(env.SSE_CLIENTS || 50);
const apiClients = Number(env.API_CLIENTS || 20);
const seconds = Number(env.LOAD_SECONDS || 30);
const appendMs = Number(env.APPEND_MS || 500);
const wild = resolve(root, '../shared/wild/claude-home');
const source = process.argv[2]
  ? resolve(process.argv[2])
  : existsSync(wild)
    ? wild
    : join(root, 'packages/cli/samples/claude-home');

const work = mkdtempSync(join(tmpdir(), 'agentdash-sse-load-'));
const home = join(work, 'home');
cpSync(source, home, { recursive: true });
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const enc = encodeURIComponent;

/** The largest transcript of the copy: the live session appended to. */
function largestFile(dir) {
  let best = { path: '', size: -1 };
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl') && !p.includes('/subagents/')) {
        const size = statSync(p).size;
        if (size > best.size) best = { path: p, size };
      }
    }
  };
  walk(dir);
  return best.path;
}

const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
};

const child = spawn(
  process.execPath,
  [
    ...(env.LOAD_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${env.LOAD_PROFILE}`] : []),
    bin,
    'serve',
    home,
    '--port',
    '0',
    '--json',
    '--db',
    join(work, 'index.sqlite'),
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, NO_COLOR: '1', HOME: work } },
);
let stderr = '';
child.stderr.on('data', (d) => {
  stderr += d;
});
const base = await servedUrl(child, () => stderr);
const getJson = jsonGetter(base);
const getText = async (path) => {
  const res = await fetch(base + path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.text();
};
for (let i = 0; i < 600; i++) {
  if ((await getJson('/api/health')).index?.state === 'ready') break;
  await sleep(500);
}
const list = await getJson('/api/sessions?limit=1000');
const ids = list.sessions.map((s) => s.id);

const routes = {
  list: () => getJson('/api/sessions?hideEmpty=1&limit=150'),
  header: () => getJson(`/api/sessions/${enc(pick(ids))}`),
  'first page': () => getText(`/api/sessions/${enc(pick(ids))}/events?offset=0&limit=100`),
  search: () => getJson(`/api/sessions?q=${pick(['error', 'test', 'build', 'fix'])}`),
  stats: () => getJson('/api/stats'),
  usage: () => getJson('/api/usage?tz=UTC'),
};
const names = Object.keys(routes);
const byRoute = Object.fromEntries(names.map((r) => [r, []]));
async function timed(route, into) {
  const t0 = performance.now();
  try {
    await routes[route]();
    into.push(performance.now() - t0);
    if (into === loaded) byRoute[route].push(performance.now() - t0);
    return true;
  } catch {
    return false;
  }
}

/** An event stream read as a browser reads it; counts the events it received. */
async function openSse() {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events`, { signal: ac.signal });
  const reader = res.body.getReader();
  const stream = { events: 0, close: () => ac.abort() };
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stream.events += (decoder.decode(value, { stream: true }).match(/^event: /gm) ?? []).length;
      }
    } catch {}
  })();
  return stream;
}

// warm up, then idle: one client, every route 20 times, nothing else open
const idle = [];
const loaded = [];
for (const r of names) await timed(r, []);
for (let i = 0; i < 20; i++) for (const r of names) await timed(r, idle);
await sleep(2000);
const rssBefore = rssMb(child.pid);

const live = largestFile(home);
const lines = readFileSync(live, 'utf8').split('\n').filter(Boolean);
const streams = await Promise.all(Array.from({ length: sseClients }, openSse));
let failures = 0;
let appended = 0;
let rssPeak = 0;
const until = performance.now() + seconds * 1000;
const appender = (async () => {
  while (performance.now() < until) {
    // an assistant record again, as a live session adds them
    appendFileSync(live, `${lines[(appended++ * 7) % lines.length]}\n`);
    rssPeak = Math.max(rssPeak, rssMb(child.pid));
    await sleep(appendMs);
  }
})();
await Promise.all([
  appender,
  ...Array.from({ length: apiClients }, async () => {
    while (performance.now() < until) if (!(await timed(pick(names), loaded))) failures++;
  }),
]);
const received = streams.reduce((n, s) => n + s.events, 0);
for (const s of streams) s.close();
const rssLoaded = rssMb(child.pid);
await sleep(15_000);
const rss15 = rssMb(child.pid);
// idle worker threads are stopped after 60 s (WORKER_IDLE_MS)
await sleep(60_000);
const rssAfter = rssMb(child.pid);
// idle again, once memory is read: on a shared machine the idle figure drifts with the load around, so the ratio
// is given against both idle runs
const idleAfter = [];
for (let i = 0; i < 20; i++) for (const r of names) await timed(r, idleAfter);
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
rmSync(work, { recursive: true, force: true });

const f = (v) => `${Math.round(v).toLocaleString('en')} ms`;
console.log(
  `${ids.length} sessions (${source}); ${sseClients} SSE + ${apiClients} API clients for ${seconds} s, an append every ${appendMs} ms`,
);
console.log('| | requests | p50 | p95 | max |');
console.log('|---|---:|---:|---:|---:|');
console.log(
  `| idle (one client) | ${idle.length} | ${f(pct(idle, 50))} | ${f(pct(idle, 95))} | ${f(Math.max(...idle))} |`,
);
console.log(
  `| idle again (after) | ${idleAfter.length} | ${f(pct(idleAfter, 50))} | ${f(pct(idleAfter, 95))} | ${f(Math.max(...idleAfter))} |`,
);
console.log(
  `| loaded | ${loaded.length} | ${f(pct(loaded, 50))} | ${f(pct(loaded, 95))} | ${f(Math.max(...loaded))} |`,
);
for (const r of names)
  console.log(
    `| ${r} | ${byRoute[r].length} | ${f(pct(byRoute[r], 50))} | ${f(pct(byRoute[r], 95))} | ${f(Math.max(...byRoute[r]))} |`,
  );
console.log(
  `p95 loaded / idle: ${(pct(loaded, 95) / pct(idle, 95)).toFixed(1)}× (before), ${(pct(loaded, 95) / pct(idleAfter, 95)).toFixed(1)}× (after); ${failures} failed`,
);
console.log(`SSE events received: ${received} over ${sseClients} streams (${appended} appends)`);
console.log(
  `RSS: before ${rssBefore} MB, peak ${rssPeak} MB, end of load ${rssLoaded} MB, 15 s after ${rss15} MB, 75 s after ${rssAfter} MB`,
);
