import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionJson, SessionsJson, StatsJson, UsageReportJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const recorded = resolve(here, '../../core/test/fixtures/copilot/1.0.102/copilot-home');
/** Two real files of Copilot CLI 1.0.64-1 and 1.0.68, whose messages record their output tokens only. */
const wild = resolve(here, '../../core/test/fixtures/copilot/wild/entire-agentv-1');

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-copilot-'));
  // A home with only Copilot CLI: its recorded sessions in ~/.copilot/session-state.
  home = join(dir, 'home');
  cpSync(recorded, join(home, '.copilot'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home, db: join(dir, 'index.sqlite') });

describe('Copilot CLI: its default home, --agent copilot', () => {
  it('reads ~/.copilot by default; each session carries agent copilot and its project', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'copilot']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => [s.agent, s.projectPath]).sort()).toEqual(
      ['api-error', 'edit', 'files', 'long', 'mcp', 'parallel', 'resume', 'shell'].map((p) => [
        'copilot',
        `/home/user/proj/${p}`,
      ]),
    );
  });

  it('counts calls per tool and their errors in stats', async () => {
    const stats = JSON.parse((await cli(['stats', '--json', '--agent', 'copilot'])).stdout) as StatsJson;
    expect(Object.fromEntries(Object.entries(stats.tools).map(([name, t]) => [name, [t.calls, t.errors]]))).toEqual({
      bash: [82, 2],
      create: [1, 0],
      edit: [2, 1],
      glob: [1, 0],
      grep: [1, 0],
      'rec-echo': [1, 0],
      'rec-fail': [1, 1],
      view: [30, 1],
    });
  });
});

describe('Copilot CLI 1.0.64 and 1.0.68: output tokens only, input not recorded', () => {
  /** A price file giving gpt-5.4-mini (no built-in price) one: its cost is known, and a lower bound. */
  const pricesFile = (): string => {
    const prices = join(dir, 'prices.json');
    writeFileSync(
      prices,
      JSON.stringify({ 'gpt-5.4-mini': { input_cost_per_token: 1e-6, output_cost_per_token: 4e-6, mode: 'chat' } }),
    );
    return prices;
  };

  it('show, sessions and usage give the cost as a lower bound (+ ?), the tokens as recorded', async () => {
    const wildHome = join(dir, 'wild-home');
    cpSync(wild, join(wildHome, '.copilot'), { recursive: true });
    const prices = pricesFile();
    const run = (args: readonly string[]) =>
      runCli([...args, '--prices', prices], { home: wildHome, db: join(dir, 'wild.sqlite') });
    const sessions = JSON.parse((await run(['sessions', '--json'])).stdout) as SessionsJson;
    const session = sessions.sessions.find((s) => s.id.startsWith('487fbe81')) as SessionJson;
    expect([session.costUsd, session.unpricedModels, session.inputUnrecordedModels]).toEqual([
      0.00018,
      [],
      ['gpt-5.4-mini'],
    ]);
    expect([session.usage.inputTokens, session.usage.outputTokens]).toEqual([0, 45]);
    const show = await run(['show', session.id]);
    expect(show.stdout.split('\n').filter((line) => /cost/.test(line))).toEqual([
      expect.stringMatching(/\$0\.00018 \+ \?/),
    ]);
    // its input is unknown, not 0
    expect(show.stdout.split('\n').filter((line) => /^tokens/.test(line))).toEqual(['tokens   ? in · 45 out']);
    const list = await run(['sessions']);
    expect(list.stdout.split('\n').filter((line) => /487fbe81/.test(line))).toEqual([
      expect.stringMatching(/\$0\.00018 \+ \?/),
    ]);
    const usage = await run(['usage', 'session', '--json']);
    expect((JSON.parse(usage.stdout) as UsageReportJson).inputUnrecordedModels).toEqual([
      'gpt-5.3-codex-spark',
      'gpt-5.4-mini',
    ]);
    expect(usage.stderr).toMatch(/no input recorded for some responses of gpt-5\.3-codex-spark, gpt-5\.4-mini/);
    const table = await run(['usage', 'session']);
    // input unknown (not 0), the total a lower bound, as the cost (spark has no price: its cost is not in it)
    expect(table.stdout.split('\n').filter((line) => /^Total/.test(line))).toEqual([
      expect.stringMatching(/ \? +45 +0 +0 +45 \+ \? +\$0\.00018 \+ \?$/),
    ]);
  });

  it("show's line of a copy of such a session's responses gives their cost as a lower bound (+ ?)", async () => {
    // A later session whose transcript holds 487fbe81's records under its own id (a resume's copy, as Claude Code's
    // resumes hold their first session's): the response is 487fbe81's, counted there, and its cost a lower bound.
    const copyHome = join(dir, 'copy-home');
    const original = '487fbe81-e917-46ad-a7c6-bf31cba53339';
    const later = 'f7e1c2d3-0000-4000-8000-000000000001';
    const text = readFileSync(join(wild, 'session-state', original, 'events.jsonl'), 'utf8');
    for (const [id, body] of [
      [original, text],
      [later, text.replaceAll(original, later)],
    ] as const) {
      mkdirSync(join(copyHome, '.copilot', 'session-state', id), { recursive: true });
      writeFileSync(join(copyHome, '.copilot', 'session-state', id, 'events.jsonl'), body);
    }
    const show = await runCli(['show', later, '--prices', pricesFile()], {
      home: copyHome,
      db: join(dir, 'copy.sqlite'),
    });
    // Before: `1 response ($0.00018, not in the cost above)`, as if its input had cost nothing.
    expect(show.stdout.split('\n').filter((line) => /^copied/.test(line))).toEqual([
      `copied   1 response ($0.00018 + ?, not in the cost above) copied from ${original} "[[ ## user_query ## ]] Reply with AGENTV_SDK_CHILD_RUNNER_R…" when it was resumed; counted there`,
    ]);
  });
});
