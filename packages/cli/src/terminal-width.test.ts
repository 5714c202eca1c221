/**
 * Every table fits the terminal: `agentdash` run with `COLUMNS` (what a terminal of that width gives it), over the
 * bundled samples, the bundled odd wild transcripts, a home with long titles, paths and an unpriced model, and
 * ../shared/wild when present. No line is wider than the terminal (a wrapped row breaks the table), what matters stays
 * (sessions' agent and cost, whole categories, a cost's "+ ?"), and usage's warnings come once, after the table.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, runCli } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import { displayWidth } from './display-width.js';
import { formatCost } from './format.js';
import type { SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const oddWild = resolve(here, '../test/fixtures/wild/claude-home');
const sharedWild = resolve(here, '../../../../shared/wild/claude-home');

let dir: string;
let home: string;
/** The first synthetic session's id (the id counter is shared by every file the worker runs). */
let firstSession: string;

/** The options both ways of running share: no home of the machine's, no colours, `COLUMNS` when given. */
const envOf = (columns: number | undefined) => ({
  CLAUDE_CONFIG_DIR: join(dir, 'no-home'),
  NO_COLOR: '1',
  TZ: 'UTC',
  ...(columns !== undefined ? { COLUMNS: String(columns) } : {}),
});

/**
 * `agentdash ARGS` in-process with `COLUMNS` set (what a terminal of that width gives it) and stdout not a terminal:
 * its exit code, stdout and stderr. The width comes from the environment alone (`outputWidth`), so a process adds
 * nothing here but its start; the one test of a real pipe below runs the built CLI as a process.
 */
const agentdash = async (args: readonly string[], columns: number | undefined) =>
  await runCli([...args, '--no-progress'], { home: dir, db: join(dir, 'index.sqlite'), env: envOf(columns) });

/** `agentdash ARGS` as a process, stdout a pipe. */
function agentdashProcess(args: readonly string[], columns: number | undefined) {
  const child = spawn(process.execPath, [bin, ...args, '--db', join(dir, 'index.sqlite'), '--no-progress'], {
    env: { PATH: process.env.PATH, HOME: dir, ...envOf(columns) },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code) => done({ code, stdout, stderr })),
  );
}

const widest = (text: string) => Math.max(0, ...text.split('\n').map(displayWidth));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-width-'));
  home = join(dir, 'home');
  // Long titles and project paths, and a model without a price (the synthetic records' claude-opus-5-5).
  for (let i = 0; i < 3; i++) {
    const sessionId = nextSessionId();
    if (i === 0) firstSession = sessionId;
    const base = basesOf(sessionId);
    const cwd = `/home/someone/work/clients/a-rather-long-client-name/services/payment-gateway-${i}`;
    const at = (n: number, parent: number | null) => ({
      ...base(
        `e${i}00000${n}-0000-4000-8000-000000000000`,
        parent === null ? null : `e${i}00000${parent}-0000-4000-8000-000000000000`,
        n,
      ),
      cwd,
    });
    writeLines(join(home, 'projects', `-p${i}`, `${sessionId}.jsonl`), [
      prompt(
        at(1, null),
        `Refactor the settlement batching so that retries never double-charge a customer ${i} `.repeat(3),
      ),
      toolUse(at(2, 1), `msg_${i}a`, `toolu_${i}a`, 'Bash', { command: 'npm test' }),
      toolResult(at(3, 2), `toolu_${i}a`, 'Exit code 1\nfailed', true),
    ]);
  }
  // The run's index of ../shared/wild (built once per run, other suites copy it too); the first command adds the
  // bundled homes and the one above to it.
  if (existsSync(sharedWild)) await copyOfIndex([sharedWild], join(dir, 'index.sqlite'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const homes = [SAMPLES_HOME, oddWild, ...(existsSync(sharedWild) ? [sharedWild] : [])];
const commands = [
  ['sessions'],
  ['stats'],
  ['usage', 'daily'],
  ['usage', 'session'],
  ['usage', 'project'],
  ['usage', 'blocks', '--breakdown'],
  ['secrets'],
];

describe(`tables fit the terminal (${existsSync(sharedWild) ? 'with' : `skipped: ${sharedWild} is not present, without`} ../shared/wild)`, () => {
  for (const columns of [100, 72]) {
    it(`no line is wider than ${columns} columns`, async () => {
      const wide: string[] = [];
      for (const args of commands) {
        const r = await agentdash([...args, ...homes, home], columns);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        if (widest(r.stdout) > columns) wide.push(`${args.join(' ')}: ${widest(r.stdout)}`);
      }
      // A timeline's long lines are broken between words, under their text.
      for (const args of [
        ['show', '0097a0c6', SAMPLES_HOME],
        ['show', firstSession.slice(0, 8), home],
      ]) {
        const r = await agentdash(args, columns);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        if (widest(r.stdout) > columns) wide.push(`${args.join(' ')}: ${widest(r.stdout)}`);
      }
      for (const args of [[], ['sessions'], ['stats'], ['usage'], ['export'], ['serve']]) {
        const r = await agentdash([...args, '--help'], columns);
        if (widest(r.stdout) > columns) wide.push(`${args.join(' ')} --help: ${widest(r.stdout)}`);
      }
      expect(wide).toEqual([]);
    });
  }

  it('sessions: agent and cost stay at 100 columns; a pipe without COLUMNS gets whole values', async () => {
    const narrow = await agentdash(['sessions', home], 100);
    const [header = '', ...rows] = narrow.stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'SESSION',
      'AGENT',
      'STARTED',
      'CALLS',
      'ERRORS',
      'COST',
      'MODEL',
      'PROJECT',
      'TITLE',
    ]);
    expect(rows.slice(0, 3).map((row) => row.split(/\s{2,}/).slice(1, 2))).toEqual([
      ['claude'],
      ['claude'],
      ['claude'],
    ]);
    const piped = await agentdashProcess(['sessions', home], undefined);
    expect(piped.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'SESSION',
      'AGENT',
      'STARTED',
      'DURATION',
      'MSGS',
      'CALLS',
      'ERRORS',
      'COST',
      'VERSION',
      'MODEL',
      'PROJECT',
      'TITLE',
    ]);
    expect(piped.stdout).toMatch(/\/services\/payment-gateway-0 {2}Refactor the settlement/);
    // whole: the project path past the column's 40, the title past its 100 (a review found both cut in a pipe)
    const row = piped.stdout.split('\n').find((line) => line.includes('payment-gateway-0')) ?? '';
    expect(row).toContain(' /home/someone/work/clients/a-rather-long-client-name/services/payment-gateway-0  ');
    // (the title itself is the prompt's first 200 characters, as the index keeps it)
    const title = row.slice(row.indexOf('Refactor the settlement')).trimEnd();
    expect(title.length).toBeGreaterThan(150);
  });

  it('sessions keep their calls, errors and cost at 80 columns; usage --breakdown names each model row', async () => {
    const sessions = await agentdash(['sessions', SAMPLES_HOME, home], 80);
    expect(sessions.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'SESSION',
      'AGENT',
      'STARTED',
      'CALLS',
      'ERRORS',
      'COST',
      'TITLE',
    ]);
    for (const columns of [80, 60]) {
      const usage = await agentdash(['usage', 'daily', '--breakdown', SAMPLES_HOME, home], columns);
      const modelRows = usage.stdout.split('\n').filter((line) => /^\s+\d/.test(line) || line.includes('└'));
      expect(modelRows.length, `${columns}`).toBeGreaterThan(0);
      // each model's row says which model it is
      expect(
        modelRows.filter((line) => !/└ \S/.test(line)),
        `${columns}`,
      ).toEqual([]);
    }
  });

  it('stats: categories whole at 100 columns', async () => {
    const r = await agentdash(['stats', SAMPLES_HOME], 100);
    const bash = r.stdout.split('\n').find((line) => line.startsWith('Bash '));
    expect(bash?.split(/\s{2,}/).at(-1)).toBe('exit-code 6, timeout 2');
  });

  it('usage daily: the cost keeps its "+ ?", and the unpriced models are named once, after the table', async () => {
    const r = await agentdash(['usage', 'daily', SAMPLES_HOME, home], 100);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^Total .* \$\S+ \+ \?$/);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((line) => line.includes('no price')),
    ).toHaveLength(1);
  });

  it('cuts no figure on a terminal too narrow for the figures alone: the line is wider instead', async () => {
    // 40 and 24 columns: before, the cost became "…" (usage), then the calls (stats); text is cut instead
    for (const columns of [40, 24]) {
      const usage = await agentdash(['usage', 'daily', SAMPLES_HOME], columns);
      const [head, first] = usage.stdout.split('\n');
      expect([head?.endsWith('COST'), first], `${columns}`).toEqual([true, expect.stringMatching(/ \$\d+\.\d{2}$/)]);
      const stats = await agentdash(['stats', SAMPLES_HOME], columns);
      const [statsHead, bash] = stats.stdout.split('\n');
      expect([statsHead?.split(/\s+/).slice(1, 3), bash?.split(/\s+/)[1]], `${columns}`).toEqual([
        ['CALLS', 'ERRORS'],
        expect.stringMatching(/^\d+$/),
      ]);
    }
  });

  it('show gives the session cost, as the sessions list does, and says what an unknown one leaves out', async () => {
    const list = await agentdash(['sessions', SAMPLES_HOME, home, '--json'], 200);
    const sessions = (JSON.parse(list.stdout) as SessionsJson).sessions;
    const costs: string[][] = [];
    // three, and one of a model without a price (the synthetic sessions')
    const unpricedOne = sessions.find((s) => s.unpricedModels.length > 0);
    for (const s of [...sessions.slice(0, 3), ...(unpricedOne ? [unpricedOne] : [])]) {
      const r = await agentdash(['show', s.ref, SAMPLES_HOME, home], 200);
      const line = r.stdout.split('\n').find((l) => l.startsWith('cost '));
      const unpriced = s.unpricedModels.map((m) => `no price for ${m}`).join(', ');
      costs.push([
        line ?? '(none)',
        `cost     ${formatCost(s.costUsd, s)}${unpriced ? ` (${unpriced}; --prices FILE adds prices)` : ''}`,
      ]);
    }
    expect(costs.map(([shown]) => shown)).toEqual(costs.map(([, listed]) => listed));
    expect(costs.at(-1)?.[0]).toContain('--prices FILE');
  });
});
