/**
 * Many processes, one index: real `agentdash` processes (the built bin) on one real database file.
 * Behaviour only: every process succeeds and the index ends as one clean run leaves it.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from './context.js';
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

beforeAll(() => {
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
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `stats --json` and `sessions --json` of a database, the figures compared between runs. */
async function figures(db: string): Promise<{ stats: unknown; sessions: unknown }> {
  const stats = await runCli(['stats', home, '--db', db, '--json']);
  const sessions = await runCli(['sessions', home, '--db', db, '--json']);
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
    const clean = join(dir, 'clean.sqlite');
    expect((await runCli(['index', home, '--db', clean, '--json'])).code).toBe(ExitCode.ok);

    const shared = join(dir, 'shared.sqlite');
    const runs = await Promise.all([
      runCli(['index', home, '--db', shared, '--json']),
      runCli(['index', home, '--db', shared, '--json']),
      runCli(['stats', home, '--db', shared, '--json']),
      runCli(['sessions', home, '--db', shared, '--json']),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [ExitCode.ok, '']));
    expect(await figures(shared)).toEqual(await figures(clean));
  });

  it('an index killed at any moment leaves a database the next run completes to the same figures', async () => {
    const clean = join(dir, 'clean-kill.sqlite');
    expect((await runCli(['index', home, '--db', clean, '--json'])).code).toBe(ExitCode.ok);
    const killed = join(dir, 'killed.sqlite');
    // Kill after each of several delays: early (opening, migrating), mid-import, near the end.
    for (const delayMs of [50, 250, 600]) {
      const run = start(['index', home, '--db', killed, '--json']);
      await new Promise((r) => setTimeout(r, delayMs));
      run.child.kill('SIGKILL');
      await run.done;
    }
    expect((await runCli(['index', home, '--db', killed, '--json'])).code).toBe(ExitCode.ok);
    expect(await figures(killed)).toEqual(await figures(clean));
  });
});
