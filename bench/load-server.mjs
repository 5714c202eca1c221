// The load bench's server side (bench/load.mjs): `agentdash serve` as a child process with a monitor preloaded in
// each of its threads, CPU and busy time per request from the monitor's samples, SSE streams, the timing and the
// table of one mode.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonGetter, servedUrl } from './setup.mjs';

// The monitor, preloaded in the server's main thread and its workers (they inherit the Node options). On `SIGUSR2`
// the main thread asks every worker for its busy time over a BroadcastChannel, then prints one line and resets its
// event-loop histogram. Times are cumulative (the script takes differences).
export function writeMonitor(work) {
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
  return monitor;
}

export const ms = (n) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en')} ms` : '–');
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
export const sleep = (t) => new Promise((r) => setTimeout(r, t));

/** A fresh `agentdash serve` over `paths` with its own index, ready once its first build is over. */
export async function startServer({ name, work, monitor, bin, paths, profile }) {
  const dir = join(work, name);
  const nodeArgs = ['--import', monitor];
  if (profile) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  const child = spawn(
    process.execPath,
    [...nodeArgs, bin, 'serve', ...paths, '--port', '0', '--json', '--db', join(dir, 'index.sqlite')],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  const reports = [];
  child.stderr.on('data', (d) => {
    stderr += d;
    for (const m of String(d).matchAll(/LOOP (\{.*\})/g)) reports.push(JSON.parse(m[1]));
  });
  const url = await servedUrl(child, () => stderr);
  const base = url.replace(/\/\/[^/:]+:/, '//127.0.0.1:');
  const getJson = jsonGetter(base);
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
export function cpuOf(before, after, requests) {
  const per = (a, b) => (a === undefined || b === undefined ? Number.NaN : (b - a) / Math.max(1, requests));
  const threads = {};
  for (const role of Object.keys(after.threads)) threads[role] = per(before.threads[role], after.threads[role]);
  return { cpu: per(before.cpuMs, after.cpuMs), threads, loop: after };
}

export const cpuText = (c) =>
  `CPU ${c.cpu.toFixed(1)} ms/request (busy per request: ${Object.entries(c.threads)
    .filter(([role]) => role !== 'watch')
    .map(([role, v]) => `${role} ${v.toFixed(1)}`)
    .join(', ')} ms)`;

export async function timed(fn) {
  const t0 = performance.now();
  try {
    await fn();
    return { ms: performance.now() - t0, ok: true };
  } catch (error) {
    return { ms: performance.now() - t0, ok: false, error: String(error) };
  }
}

/** Open the SSE stream; resolves once its hello event arrived, with a function that closes it. */
export async function openSse(base) {
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

export function table(title, routes, idle, loaded, loadedLabel) {
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
