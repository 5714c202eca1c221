/**
 * `serve` over no home shows the bundled samples; once an agent writes its first transcript (a first install, then a
 * first session), it starts again over the homes, on the same address, and the samples are gone.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { startServe } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-serve-first-home-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `serve` over an empty home (its `.claude` made, no transcript), its own index: the samples shown. */
async function servedEmptyHome(name: string) {
  const home = join(dir, name);
  mkdirSync(join(home, '.claude'), { recursive: true });
  const served = await startServe(['--no-otlp', '--no-progress'], join(dir, `${name}.sqlite`), {
    PATH: process.env.PATH,
    HOME: home,
  });
  started.push(served.child);
  expect(served.url, served.stderr()).toBeDefined();
  return { home, ...served };
}

type Health = { samples: boolean };
type Sessions = { sessions: { id: string }[] };

it("shows the samples, then the person's first session once the agent writes it, on the same address", async () => {
  const { home, child, url, stderr } = await servedEmptyHome('home');
  const get = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  expect((await get<Health>('api/health')).samples).toBe(true);
  let samples = 0;
  for (let i = 0; i < 200 && samples <= 20; i++) {
    samples = (await get<Sessions>('api/sessions')).sessions.length;
    if (samples <= 20) await new Promise((r) => setTimeout(r, 50));
  }
  expect(samples).toBeGreaterThan(20);

  const id = 'f1257000-0000-4000-8000-000000000001';
  const at = basesOf(id);
  writeLines(join(home, '.claude', 'projects', '-home-me-app', `${id}.jsonl`), [
    prompt(at('u1', null, 1), 'My first session'),
    assistantText(at('a1', 'u1', 2), 'msg_first_1', 'Hello.'),
  ]);
  // Before: the samples for as long as the server ran.
  let listed: string[] = [];
  for (let i = 0; i < 200; i++) {
    const health = await get<Health>('api/health').catch(() => undefined);
    if (health?.samples === false) {
      listed = (await get<Sessions>('api/sessions')).sessions.map((s) => s.id);
      if (listed.length > 0) break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(listed, stderr()).toEqual([id]);
  expect(stderr()).toContain('the dashboard shows them now, in place of the samples');
  expect(stderr()).toMatch(/indexed 1 file, 1 session in /);
  const closed = new Promise((done) => child.on('close', done));
  child.kill('SIGINT');
  await closed;
  // a serve process started, indexing, switched: seconds on a loaded machine (it hit the 5 s default in a full run)
}, 30_000);

it('ends on Ctrl-C pressed while it starts again over the home', async () => {
  const { home, child, stderr } = await servedEmptyHome('home-stopped');
  const id = 'f1257000-0000-4000-8000-000000000002';
  const at = basesOf(id);
  writeLines(join(home, '.claude', 'projects', '-home-me-app', `${id}.jsonl`), [
    prompt(at('u1', null, 1), 'Another first session'),
    assistantText(at('a1', 'u1', 2), 'msg_first_2', 'Hello.'),
  ]);
  // Ctrl-C as soon as it says it switches: before, the new server kept the process alive
  for (let i = 0; i < 1000 && !stderr().includes('in place of the samples'); i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(stderr()).toContain('in place of the samples');
  const closed = new Promise<number | null>((done) => child.on('close', done));
  child.kill('SIGINT');
  const code = await Promise.race([closed, new Promise((r) => setTimeout(() => r('still running'), 8_000))]);
  expect(code, stderr()).toBe(0);
}, 30_000);
