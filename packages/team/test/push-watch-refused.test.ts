/**
 * `agentdash push --watch` whose token the team server stops taking while it runs (real PostgreSQL, the built CLI):
 * it printed one "push failed (retrying)" line and retried for ever, though a revoked token never works again (a
 * device gets a new one); a one-shot push exits 11 on it. The watch now ends as the one-shot push does: its message,
 * exit code 11.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bin } from '../../cli/test/harness.js';
import { revoke } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

/** A CLI process with what it wrote so far, and its exit code once it ends. */
function run(args: readonly string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr?.on('data', (d) => {
    out.stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return { child, out, exited };
}

/** Resolves once `check` holds (polled), or rejects after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

pgSuite('push --watch whose token is revoked while it runs (real PostgreSQL, the built CLI)', () => {
  let team: TeamFixture;
  let dir: string;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-watch-refused-'));
    home = join(dir, '.claude');
    cpSync(SAMPLES, home, { recursive: true });
    env = { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), AGENTDASH_TEAM_TOKEN: '' };
  });
  afterAll(async () => {
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ends with the one-shot push's message and exit code 11, where it retried for ever", async () => {
    const db = join(dir, 'index.sqlite');
    const args = ['push', team.url, '--token', team.token, home, '--db', db];
    const watch = run([...args, '--watch', '--interval', '0.2'], env);
    try {
      await until(() => watch.out.stdout.includes('pushed to'), 60_000, 'the first push');
      await revoke(team.db.sql, 'ann/laptop');
      // the session goes on: the next round reads it and pushes
      const project = join(home, 'projects', '-home-user-proj-shell');
      const file = join(project, readdirSync(project).find((n) => n.endsWith('.jsonl')) as string);
      const last = readFileSync(file, 'utf8').trim().split('\n').at(-1) as string;
      appendFileSync(
        file,
        `${JSON.stringify({ ...JSON.parse(last), uuid: '00000000-0000-4000-8000-0000000000aa' })}\n`,
      );
      const code = await Promise.race([
        watch.exited,
        new Promise<'running'>((r) => setTimeout(() => r('running'), 60_000)),
      ]);
      expect([code, watch.out.stderr]).toEqual([11, expect.stringMatching(/refused the token/)]);
    } finally {
      watch.child.kill('SIGTERM');
    }
    // what a one-shot push with that token says, word for word
    const once = run(args, env);
    expect(await once.exited).toBe(11);
    expect(watch.out.stderr).toBe(once.out.stderr);
    expect(watch.out.stderr).not.toMatch(/retrying/);
  }, 150_000);
});
