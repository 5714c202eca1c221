/**
 * A throwaway PostgreSQL for tests and benchmarks: a fresh cluster in a temporary folder on a free loopback port,
 * started as an unprivileged user when this process runs as root (PostgreSQL refuses root), stopped and removed
 * afterwards. Never for a real team server: that one is the administrator's PostgreSQL (docs/team.md).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The folder holding `initdb`, `postgres`: on PATH, else Debian's `/usr/lib/postgresql/<newest>/bin`. */
export function findPostgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
  }
  return undefined;
}

export const postgresBin = findPostgresBin();

interface RunAs {
  readonly uid: number;
  readonly gid: number;
  readonly name: string;
}

/** Root may not run PostgreSQL: Debian's `postgres` user when it exists, else `nobody`. */
function unprivilegedUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields && fields.length > 3) return { name, uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL');
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface LocalPostgres {
  /** `postgres://agentdash@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  /** The URL of another database on the same server. */
  urlOf(database: string): string;
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  /**
   * A data directory kept across runs (a bench's database): a cluster already there is started as it is, else one is
   * created there; `stop()` leaves it in place (only the temporary socket folder is removed).
   */
  readonly data?: string;
}

/**
 * Starts a throwaway PostgreSQL (fsync off: a test or bench cluster need not survive a power cut), as an unprivileged
 * user when this process is root, in a new temporary folder removed by `stop()`.
 */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const bin = postgresBin;
  if (!bin) throw new Error('PostgreSQL is not installed');
  const runAs = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-pg-'));
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const data = options.data ?? join(dir, 'data');
  const ids = runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
  const kept = options.data !== undefined && existsSync(join(data, 'PG_VERSION'));
  if (options.data !== undefined) {
    // the folders above it stay readable by the user that runs PostgreSQL; the cluster's own is private
    mkdirSync(dirname(data), { recursive: true });
    if (!existsSync(data)) mkdirSync(data, { mode: 0o700 });
    // a copy made by another user is handed to the one that runs PostgreSQL here
    if (runAs) spawnSync('chown', ['-R', `${runAs.uid}:${runAs.gid}`, data]);
  }
  const init = kept
    ? undefined
    : spawnSync(
        join(bin, 'initdb'),
        ['-D', data, '-U', 'agentdash', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
        { ...ids, cwd: dir, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
      );
  if (init && init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  }
  const port = await freePort();
  const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  for (const setting of ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200']) {
    args.push('-c', setting);
  }
  const child: ChildProcess = spawn(join(bin, 'postgres'), args, {
    ...ids,
    cwd: dir,
    env: { ...process.env, LC_ALL: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const urlOf = (database: string) => `postgres://agentdash@127.0.0.1:${port}/${database}`;
  return {
    url: urlOf('postgres'),
    urlOf,
    async stop() {
      // SIGINT: fast shutdown (active connections are closed)
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
