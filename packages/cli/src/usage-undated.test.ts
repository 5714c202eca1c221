/**
 * A period report's rows add up to its total: the responses written without a time, which no day holds, are a row of
 * their own (a review of the CLI found `usage --model opus-4-8` over ../shared/wild flag its total "+ ?" where no day
 * was: the flagged response had no timestamp).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { UsageDailyJson } from './output/json-types.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-undated-'));
  const project = join(dir, 'home/projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  const b = basesOf('6f6f6f6f-1111-4222-8333-444444444444');
  const untimed = JSON.parse(assistantText(b('a2', 'a1', 3), 'msg_2', 'Later.')) as Record<string, unknown>;
  delete untimed.timestamp;
  writeLines(join(project, '6f6f6f6f-1111-4222-8333-444444444444.jsonl'), [
    prompt(b('p', null, 1), 'Hello.'),
    assistantText(b('a1', 'p', 2), 'msg_1', 'Hi.'),
    JSON.stringify(untimed),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) =>
  runCli(args, { home: dir, db: join(dir, 'index.sqlite'), env: { COLUMNS: '160', TZ: 'UTC' } });

it('shows the responses with no time as a row, so that the rows add up to the total', async () => {
  const table = await cli(['usage', 'daily', join(dir, 'home')]);
  expect(table.code, table.stderr).toBe(0);
  const rows = table.stdout.split('\n').map((line) => line.trim().split(/\s{2,}/));
  const cell = (label: string) => rows.find((r) => r[0] === label)?.[3];
  // each response's output is 5 tokens (the synthetic records'): one on its day, one without a time, 10 in all
  expect([cell('2026-01-02'), cell('(no time)'), cell('Total')]).toEqual(['5', '5', '10']);
  const json = JSON.parse((await cli(['usage', 'daily', join(dir, 'home'), '--json'])).stdout) as UsageDailyJson;
  const output = (entry: UsageDailyJson['daily'][number] | undefined) =>
    Object.values(entry?.models ?? {}).reduce((sum, m) => sum + m.outputTokens, 0);
  expect(json.daily.map(output)).toEqual([5]);
  expect(output(json.undated as UsageDailyJson['daily'][number])).toBe(5);
  expect(json.totals.outputTokens).toBe(10);
});

it('shows the table, not "No usage.", when every response is without a time', async () => {
  const home = join(dir, 'untimed/projects/-home-user-proj-untimed');
  mkdirSync(home, { recursive: true });
  const b = basesOf('7a7a7a7a-1111-4222-8333-444444444444');
  const lines = [prompt(b('p', null, 1), 'Hi.'), assistantText(b('a', 'p', 2), 'msg_u', 'Hello.')].map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    delete record.timestamp;
    return JSON.stringify(record);
  });
  writeLines(join(home, '7a7a7a7a-1111-4222-8333-444444444444.jsonl'), lines);
  const table = await cli(['usage', 'daily', join(dir, 'untimed')]);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).not.toContain('No usage.');
  expect(table.stdout).toMatch(/^\(no time\)/m);
});
