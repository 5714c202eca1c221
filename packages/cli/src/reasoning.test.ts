import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { formatTokens } from './format.js';
import type { SessionsJson, UsageDailyJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '../../core/test/fixtures');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-reasoning-cli-'));
  // Gemini 0.61 sessions (thoughts recorded) beside Claude Code ones (no reasoning reported).
  home = join(dir, 'home');
  cpSync(join(fixtures, 'gemini/0.61.0/.gemini'), join(home, '.gemini'), { recursive: true });
  cpSync(join(fixtures, 'usage/projects'), join(home, '.claude/projects'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite'), columns: 200 });

async function sessionsOf(agent: string): Promise<SessionsJson['sessions']> {
  return (JSON.parse((await cli(['sessions', '--json', '--agent', agent])).stdout) as SessionsJson).sessions;
}

describe('reasoning tokens from the command line', () => {
  it('usage --json and sessions --json carry them as a part of the output; Claude sessions have 0', async () => {
    const gemini = await sessionsOf('gemini');
    const reasoning = gemini.reduce((n, s) => n + s.usage.reasoningOutputTokens, 0);
    expect(reasoning).toBeGreaterThan(0);
    const report = JSON.parse((await cli(['usage', 'daily', '--json', '--agent', 'gemini'])).stdout) as UsageDailyJson;
    expect(report.totals.reasoningOutputTokens).toBe(reasoning);
    expect(report.totals.reasoningOutputTokens).toBeLessThan(report.totals.outputTokens);
    const claude = await sessionsOf('claude');
    expect(claude.length).toBeGreaterThan(0);
    expect(claude.map((s) => s.usage.reasoningOutputTokens)).toEqual(claude.map(() => 0));
  });

  it('the usage table shows them in a column of their own beside the output, and no such column for Claude', async () => {
    const report = JSON.parse(
      (await cli(['usage', 'monthly', '--json', '--agent', 'gemini'])).stdout,
    ) as UsageDailyJson;
    const [head = '', ...rows] = (await cli(['usage', 'monthly', '--agent', 'gemini'])).stdout.split('\n');
    const headers = head.trim().split(/\s{2,}/);
    expect(headers.slice(2, 5)).toEqual(['INPUT', 'OUTPUT', 'REASONING']);
    const total =
      rows
        .find((l) => l.startsWith('Total'))
        ?.trim()
        .split(/\s{2,}/) ?? [];
    expect(total.slice(2, 5)).toEqual([
      formatTokens(report.totals.inputTokens),
      formatTokens(report.totals.outputTokens),
      formatTokens(report.totals.reasoningOutputTokens),
    ]);
    const claudeTable = (await cli(['usage', 'monthly', '--agent', 'claude'])).stdout;
    expect(claudeTable.split('\n')[0]).not.toContain('REASONING');
  });
});
