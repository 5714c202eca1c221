#!/usr/bin/env node
// API latency under load against a real `agentdash serve`, next to the same requests one at a time, in two modes.
// Speed is measured here, never asserted in tests.
//
//   node bench/load.mjs [PATH…]        default: ../shared/wild and ../shared/corpus/* (else the bundled samples)
//   LOAD_MODE=saturated|browse|both    default both (each mode on its own fresh server and index)
//   LOAD_CLIENTS=20 LOAD_ROUNDS=15     saturated: clients, and requests per client per route
//   LOAD_USERS=20 LOAD_SECONDS=60      browse: dashboard users, and how long they browse
//   LOAD_THINK_MS=500-3000             browse: a user's pause between two clicks (uniform in the range)
//   LOAD_BIN=path/to/cli/bin/agentdash.js   serve with another build (default: this checkout's)
//   LOAD_PROFILE=1                     also write CPU profiles of the server's threads (in the temp folder, printed)
//
// saturated: LOAD_CLIENTS closed-loop clients fire every route back to back with no pause (a stress test: on two
// cores the loaded latency is then about LOAD_CLIENTS / throughput, by Little's law).
// browse: LOAD_USERS people use the dashboard at once, each with its SSE stream open: open the list, think, open a
// session nobody opened yet (header, then its first event page, as the web client asks), think, page further,
// think, search, think, open the analytics (stats and usage together), think, and again. Its idle baseline is one
// user doing the same with short pauses, on the same server before the others start.
//
// The server runs as a child process (the built CLI) on 127.0.0.1 with a fresh index in a temp folder; the script
// waits for the first index build. A preload in the server samples its event-loop delay (perf_hooks) and reads the
// process's CPU time and each thread's busy time (event-loop utilization: the main thread, the `sessions` workers
// summed, the `queries` worker), so each phase also prints CPU per request, and the saturated idle phase CPU per route.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = process.env;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// LOAD_BIN: another build's CLI (e.g. a checkout of an older commit), to compare under the same machine load.
const bin = env.LOAD_BIN ? resolve(env.LOAD_BIN) : join(root, 'packages/cli/bin/agentdash.js');
const shared = resolve(root, '../shared');
const mode = env.LOAD_MODE || 'both';
if (!['saturated', 'browse', 'both'].includes(mode)) throw new Error('LOAD_MODE must be saturated, browse or both');
const clients = Number(env.LOAD_CLIENTS || 20);
const rounds = Number(env.LOAD_ROUNDS || 15);
const users = Number(env.LOAD_USERS || 20);
const browseSeconds = Number(env.LOAD_SECONDS || 60);
const [thinkMin, thinkMax] = (env.LOAD_THINK_MS || '500-3000').split('-').map(Number);
const profile = env.LOAD_PROFILE === '1';

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
// The monitor, preloaded in the server's main thread and its workers (they inherit the Node options). On `SIGUSR2`
// the main thread asks every worker for its busy time over a BroadcastChannel, then prints one line and resets its
// event-loop histogram. Times are cumulative (the script takes differences).
const monitor = join(work, 'load-monitor.mjs');
writeFileSync(
  monitor,
  `import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread, threadId, workerData } from 'node:worker_threads';
const channel = new BroadcastChannel('agentdash-load-monitor');
channel.unref();
const busyMs = () => performance.eventLoopUtilization().active;
if (isMainThread) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const known = new Set();
  let replies = new Map();
  channel.onmessage = (e) => {
    if (e.data?.type === 'busy') {
      known.add(e.data.thread);
      replies.set(e.data.thread, e.data);
    }
  };
  process.on('SIGUSR2', () => {
    replies = new Map();
    channel.postMessage({ type: 'ask' });
    const t0 = Date.now();
    const report = () => {
      if (replies.size < known.size && Date.now() - t0 < 2000) return setTimeout(report, 20);
      const ms = (ns) => Math.round(ns / 1e6);
      const cpu = process.cpuUsage();
      // summed over the threads of one role (the session workers)
      const threads = { main: busyMs() };
      for (const { role, busyMs } of replies.values()) threads[role] = (threads[role] ?? 0) + busyMs;
      const line = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), cpuMs: (cpu.user + cpu.system) / 1000, threads };
      process.stderr.write('LOOP ' + JSON.stringify(line) + '\\n');
      h.reset();
    };
    setTimeout(report, 50);
  });
} else {
  const role = workerData?.role ?? (workerData?.paths ? 'watch' : 'worker ' + threadId);
  channel.onmessage = (e) => {
    if (e.data?.type === 'ask') channel.postMessage({ type: 'busy', role, thread: threadId, busyMs: busyMs() });
  };
}
`,
);

const ms = (n) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en')} ms` : '–');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const enc = encodeURIComponent;
const words = ['error', 'test', 'function', 'import', 'npm', 'git', 'file', 'build', 'fix', 'the'];

/** A fresh `agentdash serve` over `paths` with its own index, ready once its first build is over. */
async function startServer(name) {
  const dir = join(work, name);
  const nodeArgs = ['--import', monitor];
  if (profile) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  const child = spawn(
    process.execPath,
    [...nodeArgs, bin, 'serve', ...paths, '--port', '0', '--json', '--db', join(dir, 'index.sqlite')],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, NO_COLOR: '1' } },
  );
  let stderr = '';
  const reports = [];
  child.stderr.on('data', (d) => {
    stderr += d;
    for (const m of String(d).matchAll(/LOOP (\{.*\})/g)) reports.push(JSON.parse(m[1]));
  });
  const url = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /"url":\s*"([^"]+)"/.exec(out);
      if (m) done(m[1].replace(/\/$/, ''));
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const base = url.replace(/\/\/[^/:]+:/, '//127.0.0.1:');
  const getJson = async (path) => {
    const res = await fetch(base + path);
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  };
  for (let i = 0; i < 600; i++) {
    const health = await getJson('/api/health');
    if (health.index?.state === 'ready') break;
    await sleep(500);
  }
  /** The server's monitor line now (cumulative CPU and busy times; the loop delay since the last one). */
  const sample = () =>
    new Promise((done) => {
      const n = reports.length;
      child.kill('SIGUSR2');
      const wait = () => (reports.length > n ? done(reports.at(-1)) : setTimeout(wait, 20));
      wait();
    });
  // Let the work that follows the build settle (the server's CPU under 15 % over a second), so idle is idle.
  for (let i = 0; i < 30; i++) {
    const a = await sample();
    await sleep(1000);
    if ((await sample()).cpuMs - a.cpuMs < 150) break;
  }
  const stop = async () => {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
  };
  return { base, getJson, sample, stop };
}

/** CPU and busy milliseconds between two monitor samples, per request. */
function cpuOf(before, after, requests) {
  const per = (a, b) => (a === undefined || b === undefined ? Number.NaN : (b - a) / Math.max(1, requests));
  const threads = {};
  for (const role of Object.keys(after.threads)) threads[role] = per(before.threads[role], after.threads[role]);
  return { cpu: per(before.cpuMs, after.cpuMs), threads, loop: after };
}

const cpuText = (c) =>
  `CPU ${c.cpu.toFixed(1)} ms/request (busy per request: ${Object.entries(c.threads)
    .filter(([role]) => role !== 'watch')
    .map(([role, v]) => `${role} ${v.toFixed(1)}`)
    .join(', ')} ms)`;

async function timed(fn) {
  const t0 = performance.now();
  try {
    await fn();
    return { ms: performance.now() - t0, ok: true };
  } catch (error) {
    return { ms: performance.now() - t0, ok: false, error: String(error) };
  }
}

/** Open the SSE stream; resolves once its hello event arrived, with a function that closes it. */
async function openSse(base) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events`, { signal: ac.signal });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('event: hello')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  // keep reading (and dropping) what comes, as a browser does
  void (async () => {
    try {
      for (;;) if ((await reader.read()).done) break;
    } catch {}
  })();
  return () => ac.abort();
}

function table(title, routes, idle, loaded, loadedLabel) {
  const lines = [
    `\n${title}\n`,
    `| route | idle p50 | idle p95 | ${loadedLabel} p50 | ${loadedLabel} p95 | ratio p95 |`,
  ];
  lines.push('|---|---:|---:|---:|---:|---:|');
  const all = { idle: [], loaded: [] };
  const row = (name, a, b) =>
    `| ${name} | ${ms(pct(a, 50))} | ${ms(pct(a, 95))} | ${ms(pct(b, 50))} | ${ms(pct(b, 95))} | ${(pct(b, 95) / pct(a, 95)).toFixed(1)}× |`;
  for (const route of routes) {
    const a = idle.results[route] ?? [];
    const b = loaded.results[route] ?? [];
    all.idle.push(...a);
    all.loaded.push(...b);
    lines.push(row(route, a, b));
  }
  lines.push(row('**all routes**', all.idle, all.loaded));
  for (const p of [idle, loaded]) {
    const n = Object.values(p.results).reduce((k, r) => k + r.length, 0);
    lines.push(
      `${p.name}: ${n} requests in ${ms(p.wall)} (${((n / p.wall) * 1000).toFixed(0)}/s), ${p.failures} failed; ` +
        `event-loop delay p50 ${p.cpu.loop.p50} ms, p99 ${p.cpu.loop.p99} ms, max ${p.cpu.loop.max} ms; ${cpuText(p.cpu)}`,
    );
  }
  console.log(lines.join('\n'));
}

async function saturated() {
  const server = await startServer('saturated');
  const { base, getJson } = server;
  const list = await getJson('/api/sessions?limit=1000');
  const ids = list.sessions.map((s) => s.id);
  console.error(`saturated: ${list.total} sessions at ${base}; ${clients} clients × ${rounds} rounds`);

  /** One request per route; each returns when its answer is read (SSE: when the hello event arrives). */
  const routes = {
    'sessions list': () => getJson('/api/sessions?limit=200'),
    'sessions list, sorted by cost': () => getJson('/api/sessions?limit=200&sort=costUsd'),
    'session header': () => getJson(`/api/sessions/${enc(pick(ids))}`),
    'event page': () => getJson(`/api/sessions/${enc(pick(ids))}/events?offset=0&limit=100`),
    search: () => getJson(`/api/sessions?q=${enc(pick(words))}`),
    stats: () => getJson('/api/stats'),
    usage: () => getJson('/api/usage'),
    'SSE hello': async () => (await openSse(base))(),
  };
  const names = Object.keys(routes);

  // Warm up (workers, caches, JIT) before measuring.
  for (const route of names) await timed(routes[route]);

  // Idle: one client, each route's requests in a row, with the CPU each route's requests cost.
  const idle = { name: 'idle', results: {}, failures: 0, perRoute: {} };
  let t0 = performance.now();
  const first = await server.sample();
  for (const route of names) {
    const before = await server.sample();
    idle.results[route] = [];
    for (let r = 0; r < rounds; r++) {
      const t = await timed(routes[route]);
      if (t.ok) idle.results[route].push(t.ms);
      else idle.failures++;
    }
    idle.perRoute[route] = cpuOf(before, await server.sample(), rounds);
  }
  idle.wall = performance.now() - t0;
  idle.cpu = cpuOf(first, await server.sample(), rounds * names.length);

  // Loaded: every client does every route once per round, in a random order.
  const loaded = { name: `${clients} clients`, results: Object.fromEntries(names.map((k) => [k, []])), failures: 0 };
  const before = await server.sample();
  const client = async () => {
    for (let r = 0; r < rounds; r++) {
      for (const route of [...names].sort(() => Math.random() - 0.5)) {
        const t = await timed(routes[route]);
        if (t.ok) loaded.results[route].push(t.ms);
        else loaded.failures++;
      }
    }
  };
  t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  loaded.wall = performance.now() - t0;
  loaded.cpu = cpuOf(before, await server.sample(), clients * rounds * names.length);
  await server.stop();

  table(
    `## saturated: ${clients} closed-loop clients, no pause (${list.total} sessions)`,
    names,
    idle,
    loaded,
    `${clients} clients`,
  );
  console.log('\nCPU per request by route (idle, one client):\n');
  console.log('| route | CPU ms/request | main | sessions worker | queries worker |');
  console.log('|---|---:|---:|---:|---:|');
  for (const route of names) {
    const c = idle.perRoute[route];
    const f = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
    console.log(
      `| ${route} | ${f(c.cpu)} | ${f(c.threads.main)} | ${f(c.threads.sessions)} | ${f(c.threads.queries)} |`,
    );
  }
}

async function browse() {
  const server = await startServer('browse');
  const { base, getJson } = server;
  const list = await getJson('/api/sessions?limit=1000');
  // Sessions in the order users open them: each one nobody opened yet, until all were.
  let queue = [];
  const nextSession = () => {
    if (queue.length === 0) queue = list.sessions.map((s) => s.id).sort(() => Math.random() - 0.5);
    return queue.pop();
  };
  console.error(
    `browse: ${list.total} sessions at ${base}; ${users} users for ${browseSeconds} s, think ${thinkMin}–${thinkMax} ms`,
  );

  const routes = [
    'SSE hello',
    'sessions list',
    'session header',
    'session header, wait',
    'first event page',
    'next event page',
    'search',
    'stats',
    'usage',
  ];
  // `p`: the phase (its results are everyone's); `me`: this user's own state (the session they have open).
  async function visit(p, me, think, until) {
    const get = async (route, path) => {
      let body;
      const t = await timed(async () => {
        body = await getJson(path);
      });
      if (t.ok) p.results[route].push(t.ms);
      else p.failures++;
      return body;
    };
    const steps = [
      async () => {
        const sort = Math.random() < 0.25 ? pick(['costUsd', 'errors', 'durationMs', 'toolCalls']) : 'startedAt';
        await get('sessions list', `/api/sessions?hideEmpty=1&sort=${sort}&dir=desc&offset=0&limit=150`);
      },
      async () => {
        // The web client asks for the header and the first page at once; a pending header is asked again with wait.
        const id = nextSession();
        me.session = id;
        const [detail] = await Promise.all([
          get('session header', `/api/sessions/${enc(id)}`),
          get('first event page', `/api/sessions/${enc(id)}/events?offset=0&limit=100`),
        ]);
        me.total = detail?.totalEvents ?? 0;
        if (detail?.pending === true) {
          me.total = (await get('session header, wait', `/api/sessions/${enc(id)}?wait=1`))?.totalEvents ?? 0;
        }
      },
      async () => {
        const pages = Math.ceil(me.total / 100);
        for (let page = 1; page < Math.min(pages, 4); page++) {
          await get('next event page', `/api/sessions/${enc(me.session)}/events?offset=${page * 100}&limit=100`);
          await sleep(think() / 3); // scrolling
        }
      },
      async () => get('search', `/api/sessions?q=${enc(pick(words))}&hideEmpty=1`),
      async () => {
        await Promise.all([get('stats', '/api/stats'), get('usage', '/api/usage?tz=UTC')]);
      },
    ];
    for (const step of steps) {
      if (performance.now() >= until) return false;
      await step();
      await sleep(think());
    }
    return true;
  }
  async function user(p, think, until, visits = Number.POSITIVE_INFINITY) {
    const t = await timed(async () => {
      p.closers.push(await openSse(base));
    });
    if (t.ok) p.results['SSE hello'].push(t.ms);
    else p.failures++;
    const me = { session: undefined, total: 0 };
    for (let v = 0; v < visits; v++) if (!(await visit(p, me, think, until))) break;
  }
  const phaseOf = (name) => ({
    name,
    results: Object.fromEntries(routes.map((r) => [r, []])),
    failures: 0,
    closers: [],
  });
  const between = (a, b) => () => a + Math.random() * (b - a);

  // Idle: one user with short pauses, 20 visits (each route asked about 20 times, 20 sessions opened).
  const idle = phaseOf('idle (1 user)');
  let before = await server.sample();
  let t0 = performance.now();
  for (let v = 0; v < 20; v++) await user(idle, between(20, 80), Number.POSITIVE_INFINITY, 1);
  idle.wall = performance.now() - t0;
  for (const close of idle.closers) close();
  idle.cpu = cpuOf(before, await server.sample(), countOf(idle));

  const loaded = phaseOf(`${users} users`);
  before = await server.sample();
  t0 = performance.now();
  const until = t0 + browseSeconds * 1000;
  await Promise.all(
    Array.from({ length: users }, async () => {
      await sleep(Math.random() * thinkMax); // people do not all start at the same instant
      await user(loaded, between(thinkMin, thinkMax), until);
    }),
  );
  loaded.wall = performance.now() - t0;
  for (const close of loaded.closers) close();
  loaded.cpu = cpuOf(before, await server.sample(), countOf(loaded));
  await server.stop();

  table(
    `## browse: ${users} dashboard users, think ${thinkMin}–${thinkMax} ms, SSE open (${list.total} sessions)`,
    routes,
    idle,
    loaded,
    `${users} users`,
  );
}

function countOf(p) {
  return Object.values(p.results).reduce((n, r) => n + r.length, 0);
}

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} (${paths.length} paths)`,
);
if (mode !== 'browse') await saturated();
if (mode !== 'saturated') await browse();
console.log(
  `\nload average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
if (profile) {
  for (const name of ['saturated', 'browse']) {
    const dir = join(work, name);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')))
      console.log(`CPU profile: ${join(dir, f)}`);
  }
} else rmSync(work, { recursive: true, force: true });
