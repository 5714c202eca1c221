/**
 * A database remembers the paths it was built from, whichever command built it: a later command without PATH, on a
 * machine whose agent homes hold nothing, reads those paths again instead of the bundled samples. `serve PATH`
 * indexes through its server, not through the other commands' refresh, and must leave the same record.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, waitReady } from '../test/harness.js';
import type { SessionsJson } from './output/json-types.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');
const CODEX_HOME = join(fixtures, 'codex/0.169.0/codex-home');

let dir: string;
let user: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-named-roots-'));
  // A user home with no agent home in it: a command without PATH has only the database to go by.
  user = join(dir, 'user');
  mkdirSync(user);
});
// A server a failing test left running is stopped, not left watching a removed folder.
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `agentdash sessions --json` without PATH on that machine: the session ids it lists and what it said. */
async function listedWithoutPath(db: string): Promise<{ ids: string[]; stderr: string }> {
  const r = await runCli(['sessions', '--json'], { home: user, db, env: {} });
  expect(r.code, r.stderr).toBe(0);
  return { ids: (JSON.parse(r.stdout) as SessionsJson).sessions.map((s) => s.id).sort(), stderr: r.stderr };
}

/** `agentdash serve CODEX_HOME` as a process on that machine, stopped by `signal` once `when` is over. */
async function serveThenStop(db: string, signal: NodeJS.Signals, when: 'listening' | 'indexed'): Promise<void> {
  const { child, url, stderr } = await startServe([CODEX_HOME, '--no-progress', '--no-otlp'], db, {
    PATH: process.env.PATH,
    HOME: user,
  });
  started.push(child);
  expect(url, stderr()).toBeDefined();
  if (when === 'indexed') {
    await waitReady(url as string);
    // The first refresh's follow-up runs once its report is in: the line that reports it comes first.
    for (let i = 0; i < 100 && !stderr().includes('indexed '); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
  }
  const closed = new Promise((done) => child.on('close', done));
  child.kill(signal);
  await closed;
}

describe('a database built by serve PATH', () => {
  it('remembers PATH once indexed, even when the server is killed after', async () => {
    const expected = (await runCli(['sessions', CODEX_HOME, '--json'], { home: user, db: join(dir, 'named.sqlite') }))
      .stdout;
    const ids = (JSON.parse(expected) as SessionsJson).sessions.map((s) => s.id).sort();
    expect(ids.length).toBeGreaterThan(0);
    const db = join(dir, 'killed.sqlite');
    await serveThenStop(db, 'SIGKILL', 'indexed');
    // Before: "showing the bundled sample sessions", and the samples listed (and indexed into the database).
    const listed = await listedWithoutPath(db);
    expect(listed.stderr).toBe(
      `agentdash: no agent transcripts in ${join(user, '.claude')} or the other agents' homes; reading the paths ${db} was built from: ${CODEX_HOME}\n`,
    );
    expect(listed.ids).toEqual(ids);
  });

  it('remembers PATH given its transcripts after the first refresh, once the server is stopped', async () => {
    // A Codex home with no session yet when serve starts; one written while it runs (read by its watcher).
    const home = join(dir, 'codex-home');
    const day = join(home, 'sessions', '2026', '11', '23');
    mkdirSync(day, { recursive: true });
    const db = join(dir, 'grown.sqlite');
    const { child, url, stderr } = await startServe([home, '--no-progress', '--no-otlp'], db, {
      PATH: process.env.PATH,
      HOME: user,
    });
    started.push(child);
    expect(url, stderr()).toBeDefined();
    await waitReady(url as string);
    const rollout = readdirSync(join(CODEX_HOME, 'sessions', '2026', '11', '23'))[0] as string;
    cpSync(join(CODEX_HOME, 'sessions', '2026', '11', '23', rollout), join(day, rollout));
    let listed = 0;
    for (let i = 0; i < 200 && listed === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      listed = ((await (await fetch(`${url}api/sessions`)).json()) as { sessions: unknown[] }).sessions.length;
    }
    expect(listed, stderr()).toBe(1);
    const closed = new Promise((done) => child.on('close', done));
    child.kill('SIGINT');
    await closed;
    // Before: the first refresh found no file, so nothing was kept, and the samples were shown.
    const after = await listedWithoutPath(db);
    expect(after.stderr).toMatch(/reading the paths .* was built from: .*codex-home\n$/);
    expect(after.ids).toHaveLength(1);
  });
});
