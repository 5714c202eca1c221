/**
 * The stats table counts errors one way in every column: ERRORS and ERR% are real errors (expected ones apart, in
 * EXPECTED), and CATEGORIES, which sorts every error, says how many of them were expected. --json keeps its
 * documented figures (errors, errorRate and categories include expected errors).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextSessionId, prompt, type RecordBase, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { StatsJson } from './output/json-types.js';

let dir: string;
let db: string;
let home: string;

const cli = (args: readonly string[]) => runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home } });

const REJECTED = "The user doesn't want to proceed with this tool use. The tool use was rejected.";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-stats-'));
  db = join(dir, 'index.sqlite');
  home = join(dir, 'home');
  const sessionId = nextSessionId();
  const base = (n: number): RecordBase => ({
    sessionId,
    uuid: `6${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
    parentUuid: n === 1 ? null : `6${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
    timestamp: `2026-11-21T21:${String(n).padStart(2, '0')}:00.000Z`,
  });
  const edit = (n: number, id: string) =>
    toolUse(base(n), `msg_${id}`, id, 'Edit', {
      file_path: '/home/user/proj/demo/a.ts',
      old_string: 'a',
      new_string: 'b',
    });
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), [
    prompt(base(1), 'edit things'),
    edit(2, 'toolu_e1'),
    toolResult(base(3), 'toolu_e1', 'The file has been updated.', false),
    edit(4, 'toolu_e2'),
    toolResult(base(5), 'toolu_e2', 'String to replace not found in file.', true),
    edit(6, 'toolu_e3'),
    toolResult(base(7), 'toolu_e3', REJECTED, true),
    edit(8, 'toolu_e4'),
    toolResult(base(9), 'toolu_e4', REJECTED, true),
    toolUse(base(10), 'msg_b1', 'toolu_b1', 'Bash', { command: 'true' }),
    toolResult(base(11), 'toolu_b1', '', false),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agentdash stats', () => {
  it('ERRORS, ERR% and CATEGORIES agree: real errors counted, expected ones said apart', async () => {
    const r = await cli(['stats', home]);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(rows).toEqual([
      ['TOOL', 'CALLS', 'ERRORS', 'EXPECTED', 'ERR%', 'P50', 'P95', 'MAX', 'CATEGORIES'],
      [
        'Edit',
        '4',
        '1',
        '2',
        '25%',
        '1 min',
        '1 min',
        '1 min',
        'user-rejected 2, string-not-found 1 (of which 2 expected)',
      ],
      ['Bash', '1', '0', '0', '0%', '1 min', '1 min', '1 min'],
      ['TOTAL', '5', '1', '2', '20%'],
      ['1 session, 5 calls (5 with a result)'],
    ]);
  });

  it('--json keeps its documented figures: errors, errorRate and categories include expected errors', async () => {
    const out = JSON.parse((await cli(['stats', home, '--json'])).stdout) as StatsJson;
    const edit = out.tools.Edit;
    expect([edit?.errors, edit?.expectedErrors, edit?.errorRate, edit?.categories]).toEqual([
      3,
      2,
      0.75,
      { 'string-not-found': 1, 'user-rejected': 2 },
    ]);
  });
});
