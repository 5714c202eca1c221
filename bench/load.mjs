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
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuOf, openSse, sleep, startServer as startLoadServer, table, timed, writeMonitor } from './load-server.mjs';

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
const monitor = writeMonitor(work);
const startServer = (name) => startLoadServer({ name, work, monitor, bin, paths, profile });

const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const enc = encodeURIComponent;
const words = ['error', 'test', 'function', 'import', 'npm', 'git', 'file', 'build', 'fix', 'the'];

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
