// What the bench's stages share: the rows of its table and their units, and the CLI run as a whole process (time,
// exit code, output and peak RSS), `serve` started on a free port.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, cache } from './setup.mjs';

export const rows = [];
export const row = (figure, value, note = '') => {
  rows.push({ figure, value, note });
  console.error(`  ${figure}: ${value}${note ? `  (${note})` : ''}`);
};
export const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;
export const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

// Peak RSS of a child process: a preload writes process.resourceUsage().maxRSS when it exits.
const preload = join(cache, 'max-rss.mjs');
writeFileSync(
  preload,
  `import { writeFileSync } from 'node:fs';
const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
`,
);
let rssSeq = 0;

/** Run a command to completion: time, exit code, stdout (or only its length) and peak RSS. */
export function runProcess(command, args, { env = {}, keepStdout = true, stdoutFile } = {}) {
  const rssFile = join(cache, `rss-${process.pid}-${rssSeq++}`);
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(command, command === process.execPath ? ['--import', preload, ...args] : args, {
      env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    let bytes = 0;
    let stderr = '';
    // A large output (show --json of a huge session) goes to a file: it can exceed the longest string V8 makes.
    const sink = stdoutFile === undefined ? undefined : createWriteStream(stdoutFile);
    child.stdout.on('data', (d) => {
      bytes += d.length;
      if (sink !== undefined) sink.write(d);
      else if (keepStdout) chunks.push(d);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', async (code) => {
      const elapsed = performance.now() - t0;
      if (sink !== undefined) await new Promise((r) => sink.end(r));
      const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
      rmSync(rssFile, { force: true });
      done({ code, ms: elapsed, stdout: keepStdout ? Buffer.concat(chunks).toString('utf8') : '', bytes, stderr, rss });
    });
  });
}
export const agentdash = (args, options) => runProcess(process.execPath, [bin, ...args, '--no-progress'], options);

export function check(result, what) {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}: ${result.stderr.slice(0, 500)}`);
  return result;
}

export function dbSize(db) {
  return ['', '-wal'].reduce((n, s) => n + (existsSync(db + s) ? statSync(db + s).size : 0), 0);
}

/** Start `serve`, return its URL as soon as it prints it, and a stop function with its peak RSS. */
export function startServe(args) {
  const rssFile = join(cache, `rss-${process.pid}-${rssSeq++}`);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', preload, bin, 'serve', ...args, '--port', '0', '--no-progress'], {
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = new Promise((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s"]+/.exec(out);
      if (m) done({ url: m[0].replace(/\/$/, ''), ms: performance.now() - t0 });
    });
    child.on('close', (code) => fail(new Error(`serve exited with ${code}: ${err.slice(0, 300)}`)));
  });
  const stop = () =>
    new Promise((done) => {
      child.on('close', () => {
        const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
        rmSync(rssFile, { force: true });
        done(rss);
      });
      child.kill('SIGTERM');
    });
  return { t0, url, stop };
}

export async function until(fn, timeoutMs = 600_000) {
  const start = performance.now();
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (performance.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
