/**
 * Many processes, one index: real `agentdash` processes (the built bin) on one real database file.
 * Behaviour only: every process succeeds and the index ends as one clean run leaves it. The clean run and the figures
 * compared are not about processes: they run in this one (the command's function), the clean index once per file.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runInProcess } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(here, '../bin/agentdash.js');
const built = resolve(here, '../dist/bin.js');

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function start(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args, '--no-progress'], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<Result>((resolveDone) =>
    child.on('close', (code, signal) => resolveDone({ code: code ?? (signal ? -1 : -2), stdout, stderr })),
  );
  return { child, done };
}

const runCli = (args: readonly string[]) => start(args).done;

let dir: string;
let home: string;
/** The figures of one clean `index` of the home. */
let clean: { stats: unknown; sessions: unknown };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-processes-'));
  home = join(dir, 'claude-home');
  // Several copies of the bundled sessions, so that an index run lasts long enough for others to start beside it.
  for (let copy = 0; copy < 4; copy++) {
    for (const project of readdirSync(join(SAMPLES_HOME, 'projects'))) {
      cpSync(join(SAMPLES_HOME, 'projects', project), join(home, 'projects', `${project}-copy${copy}`), {
        recursive: true,
      });
    }
  }
  const cleanDb = join(dir, 'clean.sqlite');
  expect((await inProcess(['index', home, '--json'], cleanDb)).code).toBe(ExitCode.ok);
  clean = await figures(cleanDb);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inProcess = (args: readonly string[], db: string) => runInProcess([...args, '--no-progress'], { home: dir, db });

/** `stats --json` and `sessions --json` of a database, the figures compared between runs. */
async function figures(db: string): Promise<{ stats: unknown; sessions: unknown }> {
  const stats = await inProcess(['stats', home, '--json'], db);
  const sessions = await inProcess(['sessions', home, '--json'], db);
  expect(stats.code).toBe(ExitCode.ok);
  expect(sessions.code).toBe(ExitCode.ok);
  return { stats: JSON.parse(stats.stdout), sessions: JSON.parse(sessions.stdout) };
}

// Says "skipped" only when it is.
const suiteTitle = !existsSync(built)
  ? 'many processes, one index (skipped: run `npx tsc -b packages/cli` first)'
  : 'many processes, one index';
describe.skipIf(!existsSync(built))(suiteTitle, () => {
  it('index, index, stats and sessions started together all succeed and end as one clean run', async () => {
    const shared = join(dir, 'shared.sqlite');
    const runs = await Promise.all([
      runCli(['index', home, '--db', shared, '--json']),
      runCli(['index', home, '--db', shared, '--json']),
      runCli(['stats', home, '--db', shared, '--json']),
      runCli(['sessions', home, '--db', shared, '--json']),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [ExitCode.ok, '']));
    expect(await figures(shared)).toEqual(clean);
  });

  it('an index killed at any moment leaves a database the next run completes to the same figures', async () => {
    const killed = join(dir, 'killed.sqlite');
    // Kill after each of several delays: early (opening, migrating), mid-import, near the end.
    for (const delayMs of [50, 250, 600]) {
      const run = start(['index', home, '--db', killed, '--json']);
      await new Promise((r) => setTimeout(r, delayMs));
      run.child.kill('SIGKILL');
      await run.done;
    }
    expect((await runCli(['index', home, '--db', killed, '--json'])).code).toBe(ExitCode.ok);
    expect(await figures(killed)).toEqual(clean);
  });
});
