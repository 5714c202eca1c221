/**
 * `usage session` names each session as `sessions` does: a reference `show` takes (a review of the CLI over
 * ../shared/wild found four rows "full-ses agent-workflows-monorepo-v2", and `show full-ses` matched 4 sessions).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-refs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('gives each session a label that names it alone, and that `show` opens', async () => {
  const project = join(dir, 'home/projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  // two ids whose first 8 characters are the same
  const ids = ['full-session-one', 'full-session-two'];
  for (const [i, id] of ids.entries()) {
    const b = basesOf(id);
    writeLines(join(project, `${id}.jsonl`), [
      prompt(b(`p${i}`, null, 1 + i * 10), `Question ${i}.`),
      assistantText(b(`a${i}`, `p${i}`, 2 + i * 10), `msg_${i}`, `Answer ${i}.`),
    ]);
  }
  const options = { home: dir, db: join(dir, 'index.sqlite') };
  const usage = await runCli(['usage', 'session', join(dir, 'home')], options);
  expect(usage.code, usage.stderr).toBe(0);
  const labels = usage.stdout
    .split('\n')
    .filter((line) => line.includes(' demo '))
    .map((line) => line.trim().split(/\s+/)[0] ?? '');
  expect(labels).toHaveLength(2);
  // before: "full-ses" twice
  expect(new Set(labels).size).toBe(2);
  for (const label of labels) {
    const shown = await runCli(['show', label, join(dir, 'home')], options);
    expect(shown.code, `show ${label}: ${shown.stderr}`).toBe(0);
  }
});

it('names a session against every session of the index, not only those a filter lists (usage, search, sessions)', async () => {
  // three UUIDs alike in their first 8 characters, one in a project of its own
  const ids = [
    '0d0d0d0d-1111-4222-8333-444444444441',
    '0d0d0d0d-1111-4222-8333-444444444442',
    '0d0d0d0d-1111-4222-8333-444444444443',
  ];
  for (const [i, id] of ids.entries()) {
    const folder = join(dir, `uuids/projects/-home-user-proj-${i === 2 ? 'other' : 'same'}`);
    mkdirSync(folder, { recursive: true });
    const b = basesOf(id);
    writeLines(join(folder, `${id}.jsonl`), [
      prompt(b(`q${i}`, null, 1 + i * 10), i === 2 ? 'A question elsewhere.' : `Question ${i}.`),
      assistantText(b(`r${i}`, `q${i}`, 2 + i * 10), `msg_u${i}`, `Answer ${i}.`),
    ]);
  }
  const home = join(dir, 'uuids');
  const options = { home: dir, db: join(dir, 'uuids.sqlite') };
  const usage = await runCli(['usage', 'session', home, '--project', 'proj-other'], options);
  expect(usage.code, usage.stderr).toBe(0);
  const rows = usage.stdout.split('\n').filter((line) => line.startsWith('0d0d0d0d'));
  expect(rows).toHaveLength(1);
  const label = rows[0]?.split(/\s+/)[0] ?? '';
  // before: "0d0d0d0d", which matched three sessions
  const shown = await runCli(['show', label, home], options);
  expect(shown.code, `show ${label}: ${shown.stderr}`).toBe(0);
  const search = await runCli(['search', 'elsewhere', home], options);
  const ref = search.stdout.split('\n')[0]?.split(/\s+/)[0] ?? '';
  const found = await runCli(['show', ref, home], options);
  expect(found.code, `show ${ref}: ${found.stderr}`).toBe(0);
  // the sessions list, filtered, through the warm path (nothing new since): before, "0d0d0d0d" too
  const listed = await runCli(['sessions', home, '--project', 'proj-other'], options);
  const row = listed.stdout.split('\n').find((line) => line.startsWith('0d0d0d0d')) ?? '';
  const first = row.split(/\s+/)[0] ?? '';
  const opened = await runCli(['show', first, home], options);
  expect(opened.code, `show ${first}: ${opened.stderr}`).toBe(0);
});

it('lists every model of a row when the terminal has room (it was cut at 40 characters at any width)', async () => {
  const project = join(dir, 'models/projects/-home-user-proj-models');
  mkdirSync(project, { recursive: true });
  const b = basesOf('0c0c0c0c-1111-4222-8333-444444444444');
  const models = ['claude-opus-5-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-8'];
  writeLines(join(project, '0c0c0c0c-1111-4222-8333-444444444444.jsonl'), [
    prompt(b('p', null, 1), 'Ask them all.'),
    ...models.map((model, i) =>
      assistantText(b(`a${i}`, i === 0 ? 'p' : `a${i - 1}`, 2 + i), `msg_m${i}`, `From ${model}.`).replace(
        '"model":"claude-opus-5-5"',
        `"model":"${model}"`,
      ),
    ),
  ]);
  const usage = await runCli(['usage', 'monthly', join(dir, 'models')], {
    home: dir,
    db: join(dir, 'models.sqlite'),
    env: { COLUMNS: '200' },
  });
  expect(usage.code, usage.stderr).toBe(0);
  const row = usage.stdout.split('\n').find((line) => /^\d{4}-\d{2}/.test(line.trim())) ?? '';
  expect(row).toContain('haiku-4-5, opus-4-8, opus-5-5, sonnet-4-5');
});
