/**
 * What the CLI's tests share: the CLI run in-process with its output captured, and `agentdash serve` started as a
 * real process on a free port.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../src/io.js';
import { run } from '../src/run.js';

/** The built launcher (`npm run build` first). */
export const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/agentdash.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `agentdash ARGS --db DB` in-process, with `home` as the home folder (and env), output captured, no colours. */
export async function runCli(
  args: readonly string[],
  options: { readonly home: string; readonly db: string; readonly env?: CliIo['env']; readonly columns?: number },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: options.columns ?? 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: options.env ?? {},
    homedir: options.home,
    now: Date.now,
  };
  const code = await run([...args, '--db', options.db], io);
  return { code, stdout, stderr };
}

/**
 * `agentdash serve ARGS --port 0 --db DB` as a process (with this environment, else this one's): resolves with the URL
 * it prints, or with its exit code when it ends first (a path it refuses).
 */
export async function startServe(
  args: readonly string[],
  db: string,
  env?: NodeJS.ProcessEnv,
): Promise<{
  child: ChildProcessWithoutNullStreams;
  url: string | undefined;
  code: number | null;
  /** What the server has written to stderr so far (for a failing test to show why). */
  stderr: () => string;
}> {
  const child = spawn(process.execPath, [bin, 'serve', ...args, '--port', '0', '--db', db], {
    stdio: 'pipe',
    ...(env === undefined ? {} : { env }),
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  const stderr = () => err;
  return new Promise((done) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /https?:\/\/\S+/.exec(out);
      if (match) done({ child, url: match[0], code: null, stderr });
    });
    child.on('close', (code) => done({ child, url: undefined, code, stderr }));
  });
}

/**
 * Stop an `agentdash serve` process and wait for it to end. A server asked to stop still closes its index, and may
 * open the index file again meanwhile: a suite that removes its folder before then finds the folder made again, an
 * index in it, left in the temp folder after every run.
 */
export async function stopServe(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  // A server that does not end on SIGTERM is killed: the suite fails on what it left, not on its own timeout.
  const late = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await ended;
  clearTimeout(late);
}

/** The server's health once its first index build is over (or after 10 s, whatever it says then). */
export async function waitReady(
  url: string,
): Promise<{ index: { state: string; filesDone: number; filesTotal: number } } | undefined> {
  let health: { index: { state: string; filesDone: number; filesTotal: number } } | undefined;
  for (let i = 0; i < 200 && health?.index.state !== 'ready'; i++) {
    health = (await (await fetch(`${url}api/health`)).json()) as typeof health;
    if (health?.index.state !== 'ready') await new Promise((r) => setTimeout(r, 50));
  }
  return health;
}
