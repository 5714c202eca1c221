import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localZoneKey } from './commands/usage.js';
import type { CliIo } from './io.js';
import type {
  SessionsJson,
  StatuslineJson,
  UsageBlocksJson,
  UsageDailyJson,
  UsageProjectJson,
  UsageSessionJson,
} from './output/json-types.js';
import { run } from './run.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Two sessions of 21 Nov 2026, 10:00–11:00 UTC (see packages/core/test/fixtures/usage). */
const home = join(repoRoot, 'packages/core/test/fixtures/usage');
const transcript = join(home, 'projects/-home-user-proj-usage/7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22.jsonl');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[], options: { stdin?: string; now?: number; tz?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 160 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
    homedir: dir,
    now: () => options.now ?? Date.parse('2026-11-21T12:00:00Z'),
    readStdin: async () => options.stdin,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  return { code, stdout, stderr };
}

// Sonnet 4.5 per million tokens: $3 input, $15 output, $3.75 5-minute write, $6 1-hour write, $0.30 read.
const sonnetA = (3879 * 3 + 141 * 15 + 3922 * 3.75 + 10823 * 0.3) / 1e6;
const sonnetB = (10 * 3 + 50 * 15 + 1000 * 3.75 + 4000 * 6 + 14000 * 0.3) / 1e6;
const gateway = (100 * 3 + 10 * 15 + 200 * 3 + 20 * 15) / 1e6;
const sonnetD = (5 * 3 + 40 * 15 + 100 * 3.75 + 20000 * 0.3) / 1e6;
const haikuC = (7 * 1 + 30 * 5 + 300 * 0.1) / 1e6;

describe('agentdash usage', () => {
  it('daily --json has the documented shape, each response once, priced', async () => {
    const r = await cli(['usage', 'daily', home, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as UsageDailyJson;
    expect(out.daily.map((d) => Object.keys(d))).toEqual([['date', 'models', 'costUsd']]);
    expect(out.daily[0]?.date).toBe('2026-11-21');
    const haiku = out.daily[0]?.models['claude-haiku-4-5-20251001'];
    expect(Object.keys(haiku ?? {})).toEqual([
      'responses',
      'inputTokens',
      'outputTokens',
      'cacheCreationInputTokens',
      'cacheReadInputTokens',
      'reasoningOutputTokens',
      'costUsd',
    ]);
    expect(haiku).toMatchObject({ responses: 1, inputTokens: 7, outputTokens: 30, cacheReadInputTokens: 300 });
    expect(haiku?.costUsd).toBeCloseTo(haikuC, 12);
    expect(out.daily[0]?.models['claude-sonnet-4-5-20250929']?.responses).toBe(5);
    expect(out.daily[0]?.costUsd).toBeCloseTo(sonnetA + sonnetB + gateway + sonnetD + haikuC, 12);
    expect(out.totals.responses).toBe(6);
    expect(out.unpricedModels).toEqual([]);
    expect(out.prices.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('--since D is a local day', async () => {
    const day = await cli(['usage', 'daily', home, '--json', '--since', '2026-11-21']);
    expect(day.code).toBe(0);
    // The fixture's responses are 10:00–11:00 UTC: the 21st in UTC (the test run's TZ).
    expect((JSON.parse(day.stdout) as UsageDailyJson).daily.map((d) => d.date)).toEqual(['2026-11-21']);
    const after = await cli(['usage', 'daily', home, '--json', '--since', '2026-11-22']);
    expect((JSON.parse(after.stdout) as UsageDailyJson).daily).toEqual([]);
  });

  it('honours TZ: the same responses fall on the 22nd at UTC+14 (a real process, so the zone is its own)', () => {
    const daily = (tz: string) => {
      const out = execFileSync(
        process.execPath,
        [
          join(repoRoot, 'packages/cli/bin/agentdash.js'),
          'usage',
          'daily',
          home,
          '--json',
          '--db',
          join(dir, `tz.sqlite`),
        ],
        { env: { ...process.env, TZ: tz, CLAUDE_CONFIG_DIR: join(dir, 'none') }, encoding: 'utf8' },
      );
      return (JSON.parse(out) as UsageDailyJson).daily.map((d) => d.date);
    };
    expect(daily('Pacific/Kiritimati')).toEqual(['2026-11-22']);
    expect(daily('UTC')).toEqual(['2026-11-21']);
  });

  it("keys a stored answer by the local zone's name: TZ, else /etc/localtime's link, else Intl's", () => {
    const noLink = () => undefined;
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(localZoneKey('Pacific/Kiritimati', noLink)).toBe('TZ=Pacific/Kiritimati');
    expect(localZoneKey('Etc/GMT-14', noLink)).toBe('TZ=Etc/GMT-14');
    // A file (its content decides) and a POSIX rule are not names: the zone they resolve to is.
    expect(localZoneKey(':/etc/localtime', () => '/usr/share/zoneinfo/UTC')).toBe(intl);
    expect(localZoneKey('CET-1CEST,M3.5.0,M10.5.0/3', noLink)).toBe(intl);
    expect(localZoneKey('', noLink)).toBe(intl);
    expect(localZoneKey(undefined, () => '/usr/share/zoneinfo/Europe/Paris')).toBe(
      'localtime=/usr/share/zoneinfo/Europe/Paris',
    );
    expect(localZoneKey(undefined, noLink)).toBe(intl);
  });

  it('session --json counts each response once, in the session that started first; table with breakdown', async () => {
    const out = JSON.parse((await cli(['usage', 'session', home, '--json'])).stdout) as UsageSessionJson;
    expect(
      out.sessions.map((s) => [s.sessionId.slice(0, 8), s.models['claude-sonnet-4-5-20250929']?.responses]),
    ).toEqual([
      ['5d1f6c2a', 4],
      ['7e2a9b4c', 1],
    ]);
    expect(out.sessions[1]?.costUsd).toBeCloseTo(sonnetD, 12);
    const table = await cli(['usage', 'monthly', home, '--breakdown']);
    expect(
      table.stdout
        .split('\n')
        .slice(0, 4)
        .map((l) => l.split(/\s{2,}/)[0]),
    ).toEqual(['MONTH', '2026-11', '', '']);
    expect(table.stdout).toMatch(/└ haiku-4-5/);
  });

  it('show of the resumed session says what it copied from the first, and counts only its own calls', async () => {
    const { stdout } = await cli(['show', '7e2a9b4c', home]);
    // Before: "1 tool call" with the copy drawn as a call of its own ("(0 ms)"), nothing saying where it is counted.
    expect(stdout).toMatch(/^counts {3}.*, 0 tool calls \(\+1 copied\),/m);
    expect(stdout).toContain(
      `copied   1 tool call and 1 response ($${sonnetA.toPrecision(2)}, not in the cost above) copied from 5d1f6c2a-0b6e-4f7e-9a51-2f0c3a9d8e11`,
    );
    // The session's tokens and cost are its own response's, as usage gives them (msg_01D), not the copy's too.
    expect(stdout).toMatch(/^tokens {3}5 in · 40 out · 20\.0k cache read · 100 cache write$/m);
    expect(stdout).toMatch(new RegExp(`^cost {5}\\$${sonnetD.toPrecision(2).replace('.', '\\.')}`, 'm'));
    expect(stdout).toMatch(/✓ Read .*\(copied\)$/m);
    // Its own time: its prompt to its answer, not from the copied call an hour before (before: "1.0 h wall").
    expect(stdout).toMatch(/^time {5}.* \(1\.0 s wall of its own\)$/m);
    expect((await cli(['show', '5d1f6c2a', home])).stdout).not.toContain('copied');
  });

  it('project --json: per project, most expensive first', async () => {
    const out = JSON.parse((await cli(['usage', 'project', home, '--json'])).stdout) as UsageProjectJson;
    expect(out.projects.map((p) => p.project)).toEqual(['/home/user/proj/usage']);
    expect(out.projects[0]?.costUsd).toBeCloseTo(sonnetA + sonnetB + gateway + sonnetD + haikuC, 12);
  });

  it('blocks --json: the active block with time left', async () => {
    const out = JSON.parse(
      (await cli(['usage', 'blocks', home, '--json'], { now: Date.parse('2026-11-21T12:30:00Z') })).stdout,
    ) as UsageBlocksJson;
    expect(out.blocks.map((b) => [b.start, b.end, b.isActive, b.remainingMs])).toEqual([
      ['2026-11-21T10:00:00.000Z', '2026-11-21T15:00:00.000Z', true, 2.5 * 3_600_000],
    ]);
  });

  it('blocks: the active block says when it ends and what it is projected to cost by then', async () => {
    const now = Date.parse('2026-11-21T12:30:00Z');
    const json = JSON.parse((await cli(['usage', 'blocks', home, '--json'], { now })).stdout) as UsageBlocksJson;
    const projected = json.blocks[0]?.projectedCostUsd ?? 0;
    const table = await cli(['usage', 'blocks', home], { now });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n').filter((line) => line.includes('projected'));
    expect(lines.map((line) => line.trim())).toEqual([`projected $${projected.toFixed(2)} by 15:00`]);
  });

  it('a model without a price: cost unknown (null, never 0) and a warning naming it', async () => {
    const unknownHome = join(dir, 'unknown-home');
    mkdirSync(join(unknownHome, 'projects', '-p'), { recursive: true });
    const record = {
      type: 'assistant',
      uuid: '00000000-0000-4000-8000-000000000001',
      parentUuid: null,
      sessionId: '9c0d1e2f-0000-4000-8000-000000000001',
      timestamp: '2026-11-21T10:00:00.000Z',
      cwd: '/p',
      message: {
        id: 'msg_u',
        model: 'claude-opus-5-5',
        role: 'assistant',
        content: [],
        usage: { input_tokens: 5, output_tokens: 7 },
      },
    };
    writeFileSync(
      join(unknownHome, 'projects', '-p', '9c0d1e2f-0000-4000-8000-000000000001.jsonl'),
      `${JSON.stringify(record)}\n`,
    );
    const r = await cli(['usage', 'daily', unknownHome, '--json']);
    const out = JSON.parse(r.stdout) as UsageDailyJson;
    expect(out.daily[0]?.models['claude-opus-5-5']).toMatchObject({ inputTokens: 5, outputTokens: 7, costUsd: null });
    expect([out.daily[0]?.costUsd, out.totals.costUsd, out.unpricedModels]).toEqual([null, null, ['claude-opus-5-5']]);
    expect(r.stderr).toMatch(/no price for claude-opus-5-5 \(1 response\)/);
    const table = await cli(['usage', 'daily', unknownHome]);
    expect(table.stdout).toMatch(/unknown/);
  });

  it('--prices FILE: LiteLLM prices over the built-in table; an unreadable file is a usage error', async () => {
    const prices = join(dir, 'prices.json');
    writeFileSync(
      prices,
      JSON.stringify({ 'claude-haiku-4-5': { input_cost_per_token: 1e-3, output_cost_per_token: 0, mode: 'chat' } }),
    );
    // Each table's report is kept apart: the built-in one's stored answer is not given for the file's, nor back.
    const builtIn = await cli(['usage', 'daily', home, '--json', '--model', 'haiku']);
    const priced = await cli(['usage', 'daily', home, '--json', '--model', 'haiku', '--prices', prices]);
    // input 7 × $0.001, cache read 300 × a tenth of the input price (LiteLLM's default when the entry has none).
    expect(JSON.parse(priced.stdout).totals.costUsd).toBeCloseTo(7e-3 + 300 * 1e-4, 12);
    expect(JSON.parse(builtIn.stdout).totals.costUsd).not.toBeCloseTo(7e-3 + 300 * 1e-4, 12);
    expect((await cli(['usage', 'daily', home, '--json', '--model', 'haiku'])).stdout).toBe(builtIn.stdout);
    const bad = await cli(['usage', 'daily', home, '--prices', join(dir, 'missing.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(`agentdash: --prices ${join(dir, 'missing.json')}: cannot read it (no such file)`);
    // not JSON: one whole line (the parser's message quoted the file's text, newline and all, and was cut there)
    const text = join(dir, 'prices.txt');
    writeFileSync(text, 'hello world\nmore\n');
    const notJson = await cli(['usage', 'daily', home, '--prices', text]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr.trim()).toMatch(/^agentdash: --prices .*prices\.txt: not JSON \(Unexpected token .*\)$/);
  });
});

/** A Claude Code session of one response at `at` in project `project`, `output` tokens of Sonnet 4.5. */
function claudeSession(root: string, project: string, id: string, at: string, output: number): void {
  const folder = join(root, 'projects', `-${project}`);
  mkdirSync(folder, { recursive: true });
  const record = {
    type: 'assistant',
    uuid: `${id.slice(0, 8)}-0000-4000-8000-000000000001`,
    parentUuid: null,
    sessionId: id,
    timestamp: at,
    cwd: `/${project}`,
    message: {
      id: `msg_${id.slice(0, 8)}`,
      model: 'claude-sonnet-4-5-20250929',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 10, output_tokens: output },
    },
  };
  writeFileSync(join(folder, `${id}.jsonl`), `${JSON.stringify(record)}\n`);
}

describe('agentdash usage blocks: Claude Code’s usage limits, the account’s', () => {
  const codex = join(repoRoot, 'packages/core/test/fixtures/codex/0.169.0/codex-home');
  const now = Date.parse('2026-11-23T05:00:00Z');
  let claude: string;
  beforeAll(() => {
    claude = join(dir, 'blocks-home');
    claudeSession(claude, 'p1', '1b1b1b1b-0000-4000-8000-000000000001', '2026-11-23T02:10:00.000Z', 100);
    claudeSession(claude, 'p2', '2b2b2b2b-0000-4000-8000-000000000002', '2026-11-23T04:30:00.000Z', 200);
  });
  const blocks = async (...args: string[]) => {
    const r = await cli(['usage', 'blocks', ...args, '--json'], { now });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as UsageBlocksJson).blocks.map((b) => [b.start, b.isActive, b.tokens.outputTokens]);
  };
  // Before: the Codex responses at 00:57 (gpt-5.5) started a block at 00:00, over by 05:00; a project's or a --since's
  // blocks were made of their own responses (from 04:00).
  it('are made of Claude Code’s responses only, beside another agent’s', async () => {
    expect(await blocks(claude, codex)).toEqual([['2026-11-23T02:00:00.000Z', true, 300]]);
  });
  it('start where the account’s do, whatever the project or the time range; they count what is asked', async () => {
    expect(await blocks(claude, '--project', 'p2')).toEqual([['2026-11-23T02:00:00.000Z', true, 200]]);
    expect(await blocks(claude, '--since', '2026-11-23T03:00:00Z')).toEqual([['2026-11-23T02:00:00.000Z', true, 300]]);
    expect(await blocks(claude, '--until', '2026-11-23T01:00:00Z')).toEqual([]);
  });
  it('are none of another agent’s: said as a bad argument', async () => {
    const r = await cli(['usage', 'blocks', claude, codex, '--agent', 'codex']);
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      "agentdash: usage blocks: 5-hour billing blocks are Claude Code's usage limits; Codex has none",
    ]);
  });
});

describe('agentdash statusline and sessions', () => {
  it('statusline reads Claude Code’s stdin JSON and prints one line', async () => {
    const stdin = JSON.stringify({
      session_id: '7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22',
      transcript_path: transcript,
      model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' },
    });
    const now = Date.parse('2026-11-21T12:30:00Z');
    const r = await cli(['statusline'], { stdin, now });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    const out = JSON.parse((await cli(['statusline', '--json'], { stdin, now })).stdout) as StatuslineJson;
    // The resumed session holds a copy of msg_01A: the session it was resumed from counts it, not this one (as
    // the sessions list and usage do).
    expect(out.sessionCostUsd).toBeCloseTo(sonnetD, 12);
    expect(out.todayCostUsd).toBeCloseTo(sonnetA + sonnetB + gateway + sonnetD + haikuC, 12);
    expect(out.block?.remainingMs).toBe(2.5 * 3_600_000);
    expect(out.line).toBe(r.stdout.trimEnd());
    expect(out.line.startsWith('Sonnet 4.5 · $')).toBe(true);
  });

  it('sessions --json carries cost, subagent usage and time', async () => {
    const out = JSON.parse((await cli(['sessions', home, '--json'])).stdout) as SessionsJson;
    const first = out.sessions.find((s) => s.id.startsWith('5d1f6c2a'));
    expect(first?.costUsd).toBeCloseTo(sonnetA + sonnetB + gateway + haikuC, 12);
    expect(first?.subagentUsage.responses).toBe(0);
    // The synthetic API error (10:01:05) is no model response: the second before it is the client's, after a prompt.
    expect(first?.time).toEqual({ wallMs: 69_000, modelMs: 6_000, toolMs: 1_000, userMs: 62_000, idleMs: 0 });
  });
});
