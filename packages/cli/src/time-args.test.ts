/**
 * --since and --until: one parser for every command that takes them. A date the calendar does not have is a usage
 * error (exit 2) everywhere, never rolled into the next month; real dates, times and ages still work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextSessionId, writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { localDayMs, timeArg } from './args.js';
import { ExitCode } from './errors.js';

let dir: string;
let db: string;
let home: string;

const cli = (args: readonly string[]) => runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-dates-'));
  db = join(dir, 'index.sqlite');
  home = join(dir, 'home');
  writeDemoHome(home, { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' }, nextSessionId());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command and option that takes a WHEN. */
const takers = [
  ['sessions', '--since'],
  ['sessions', '--until'],
  ['stats', '--since'],
  ['stats', '--until'],
  ['secrets', '--since'],
  ['secrets', '--until'],
  ['usage', '--since'],
  ['usage', '--until'],
  ['usage session', '--since'],
  ['usage blocks', '--until'],
  ['search tests', '--since'],
] as const;

describe('--since and --until', () => {
  it('an impossible date is a usage error in every command, with and without --json', async () => {
    for (const bad of [
      '2026-02-30',
      '2026-13-45',
      '2025-02-29',
      '2026-04-31T10:00:00Z',
      '2026-01-31T25:00',
      '20261301',
    ]) {
      for (const [command, option] of takers) {
        const r = await cli([...command.split(' '), home, option, bad]);
        expect([command, option, bad, r.code, r.stdout, r.stderr]).toEqual([
          command,
          option,
          bad,
          ExitCode.badArguments,
          '',
          `agentdash: ${option} must be a real date or time: there is no ${bad} in the calendar\n`,
        ]);
      }
    }
    const json = await cli(['usage', home, '--since', '2026-13-45', '--json']);
    expect([json.code, JSON.parse(json.stderr).error.kind]).toEqual([ExitCode.badArguments, 'bad-arguments']);
  });

  it('real dates, times and ages are taken, each command as before', async () => {
    for (const good of [
      '2024-02-29',
      '2026-01-02',
      '20260102',
      '2026-01-02T10:00:05Z',
      '2026-01-02T10:00+02:00',
      '7d',
    ]) {
      for (const [command, option] of takers) {
        const r = await cli([...command.split(' '), home, option, good]);
        expect([command, option, good, r.code]).toEqual([command, option, good, ExitCode.ok]);
      }
    }
    const sessions = await cli([
      'sessions',
      home,
      '--since',
      '2026-01-02',
      '--until',
      '2026-01-02T10:00:05Z',
      '--json',
    ]);
    expect(JSON.parse(sessions.stdout).sessions).toHaveLength(1);
  });

  it('a day alone is the local day in every command, --until through its end', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const at = (name: string, value: string) => timeArg({ [name]: value }, name, now);
    expect([
      at('since', '2026-01-31'),
      at('until', '2026-01-31'),
      at('since', '2026-01-31T10:00:00.250+0130'),
      at('since', '2d'),
    ]).toEqual([
      new Date(2026, 0, 31).toISOString(),
      new Date(new Date(2026, 1, 1).getTime() - 1).toISOString(),
      '2026-01-31T08:30:00.250Z',
      '2026-11-19T12:00:00.000Z',
    ]);
    // The demo session is of 2 January: --until that day takes it in, in the session filters as in usage.
    const count = async (args: readonly string[]) => {
      const sessions = JSON.parse((await cli(['sessions', home, ...args, '--json'])).stdout).sessions.length;
      const calls = JSON.parse((await cli(['stats', home, ...args, '--json'])).stdout).calls;
      const responses = JSON.parse((await cli(['usage', 'session', home, ...args, '--json'])).stdout).sessions.length;
      return { sessions, calls, responses };
    };
    const all = await count([]);
    expect(all.sessions).toBe(1);
    expect(all.calls).toBeGreaterThan(0);
    expect(await count(['--until', '2026-01-02'])).toEqual(all);
    expect(await count(['--until', '2026-01-01'])).toEqual({ sessions: 0, calls: 0, responses: 0 });
    expect(await count(['--since', '2026-01-02', '--until', '2026-01-02'])).toEqual(all);
    expect([localDayMs('20260131', false), localDayMs('2026-01-31T10:00', false), localDayMs('7d', true)]).toEqual([
      new Date(2026, 0, 31).getTime(),
      undefined,
      undefined,
    ]);
    // an offset of hours alone (ISO allows it), an age's unit in capitals
    expect([at('since', '2026-04-01T10:00+02'), at('since', '7D'), at('since', '12H')]).toEqual([
      '2026-04-01T08:00:00.000Z',
      '2026-11-14T12:00:00.000Z',
      '2026-11-21T00:00:00.000Z',
    ]);
    expect(() => at('since', '3M')).toThrow('--since must be a date');
    expect(() => at('since', 'yesterday-ish')).toThrow(
      '--since must be a date (2026-01-31, ISO time) or an age like 7d, 12h, 30m; got "yesterday-ish"',
    );
  });
});
