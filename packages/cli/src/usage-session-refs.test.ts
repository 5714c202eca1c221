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
