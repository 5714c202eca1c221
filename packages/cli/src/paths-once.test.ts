/** Paths named twice under other names (a symbolic link to a home, or to one of its folders): each session once. */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { oncePerFolder } from './commands/check-paths.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { SessionsJson } from './output/json-types.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-paths-once-'));
  symlinkSync(SAMPLES_HOME, join(dir, 'home-link'));
  symlinkSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-extras'), join(dir, 'project-link'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ids = async (paths: readonly string[]) => {
  const out = await runCli(['sessions', ...paths, '--json', '--limit', '1000'], {
    home: dir,
    db: join(dir, `${paths.length}-${Math.random()}.sqlite`),
  });
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as SessionsJson).sessions.map((s) => s.id).sort();
};

it('lists each session once when a home is named beside a link to it, or to one of its folders', async () => {
  const once = await ids([SAMPLES_HOME]);
  expect(once.length).toBeGreaterThan(10);
  expect(await ids([SAMPLES_HOME, join(dir, 'home-link')])).toEqual(once);
  expect(await ids([join(dir, 'project-link'), SAMPLES_HOME])).toEqual(once);
});

it('keeps the outer of two paths, the first of equal ones, and a path that does not resolve as written', () => {
  const link = join(dir, 'home-link');
  const project = join(dir, 'project-link');
  expect(oncePerFolder([project, SAMPLES_HOME, link])).toEqual([SAMPLES_HOME]);
  expect(oncePerFolder([link, SAMPLES_HOME])).toEqual([link]);
  expect(oncePerFolder([join(dir, 'gone'), join(dir, 'gone', 'x'), project])).toEqual([join(dir, 'gone'), project]);
});
