/**
 * `serve` stopped (Ctrl-C) while its first index build still runs: the build ends as the database closes under it,
 * which is no failure. It says so, and the next command reads the rest.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, startServe } from '../test/harness.js';
import type { SessionsJson } from './output/json-types.js';

const SESSIONS = 600;

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-serve-stop-'));
  home = join(dir, '.claude');
  for (let i = 0; i < SESSIONS; i++) {
    const id = `${String(i).padStart(8, '0')}-2222-4333-8444-555555555555`;
    const base = basesOf(id);
    // Ids of its own: sessions sharing message ids are copies of one another (a resume, a fork).
    const b = (uuid: string, parent: string | null, second: number) =>
      base(`${i}-${uuid}`, parent === null ? null : `${i}-${parent}`, second);
    const lines = [prompt(b('u1', null, 0), `Task ${i}: run the tests.`)];
    for (let k = 0; k < 20; k++) {
      const call = `toolu_${i}_${k}`;
      lines.push(
        toolUse(b(`a${k}`, k === 0 ? 'u1' : `r${k - 1}`, 1), `msg_${i}_${k}`, call, 'Bash', {
          command: `npm test -- ${k}`,
        }),
      );
      lines.push(toolResult(b(`r${k}`, `a${k}`, 2), call, `ok ${k}\n${'output line\n'.repeat(20)}`, false));
    }
    writeLines(join(home, 'projects', `-home-user-p${i % 50}`, `${id}.jsonl`), lines);
  }
});
// A server a failing test left running is stopped, not left watching a removed folder.
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('says the build stopped, not that it failed, and the next command reads the rest', async () => {
  const db = join(dir, 'index.sqlite');
  const { child, url, stderr } = await startServe([home, '--no-progress', '--no-otlp'], db, {
    PATH: process.env.PATH,
    HOME: dir,
  });
  started.push(child);
  expect(url, stderr()).toBeDefined();
  // Stopped once the build has stored some files and has more to go.
  let health: { index: { state: string; filesDone: number; filesTotal: number } } | undefined;
  for (let i = 0; i < 400; i++) {
    health = (await (await fetch(`${url}api/health`)).json()) as typeof health;
    if (health !== undefined && (health.index.filesDone > 0 || health.index.state !== 'indexing')) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(health?.index.state, 'the build was over before the server was stopped: give it more files').toBe('indexing');
  const closed = new Promise<number | null>((done) => child.on('close', done));
  child.kill('SIGINT');
  expect(await closed).toBe(0);
  // Before: "indexing failed: The database connection is not open".
  expect(stderr()).not.toContain('indexing failed');
  expect(stderr()).toContain('indexing stopped before it was over: the next command reads the rest');
  const next = await runCli(['sessions', home, '--json'], { home: dir, db });
  expect(next.code, next.stderr).toBe(0);
  expect((JSON.parse(next.stdout) as SessionsJson).sessions).toHaveLength(SESSIONS);
});
