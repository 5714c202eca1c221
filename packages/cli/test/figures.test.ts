/**
 * One set of numbers: for every session of a real home (../shared/wild when present, else the bundled samples), the
 * CLI's `--json` figures equal the dashboard API's, and the words both show come from the same rule. Totals are
 * over unique calls: the sessions list, Analytics and `stats` agree.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatErrors } from '@agentdash/core/present';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import type { SessionsResponse, StatsResponse } from '@agentdash/server/api-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from '../src/default-homes.js';
import type { CliIo } from '../src/io.js';
import type { SessionsJson, StatsJson } from '../src/output/json-types.js';
import { run } from '../src/run.js';

const WILD = join(import.meta.dirname, '../../../../shared/wild/claude-home');
const home = existsSync(WILD) ? WILD : SAMPLES_HOME;
console.log(
  `figures suite: ${home === WILD ? 'over ../shared/wild' : 'over the bundled samples (../shared/wild absent)'}`,
);

let dir: string;
let db: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

async function cliJson<T>(args: readonly string[]): Promise<T> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: home },
    homedir: home,
    now: Date.now,
  };
  const code = await run([...args, home, '--json', '--db', db], io);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as T;
}

async function api<T>(path: string): Promise<T> {
  const res = await app.request(path, { headers: { host: '127.0.0.1:4317' } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-figures-'));
  db = join(dir, 'index.sqlite');
  await cliJson(['index']);
  index = openIndex({ dbPath: db });
  app = createApp({ index, paths: [home], host: '127.0.0.1', port: 4317, assetsDir: dir });
  // The whole wild home indexed through the CLI: past the fast loop's 10 s for hooks beside its other files.
}, 60_000);
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CLI and dashboard figures', () => {
  it('every session: calls, errors, expected errors, messages, duration and cost are the same', async () => {
    const cli = await cliJson<SessionsJson>(['sessions']);
    const web = await api<SessionsResponse>('/api/sessions?limit=1000');
    const pick = (s: {
      id: string;
      toolCalls: number;
      errors: number;
      expectedErrors: number;
      messages: number;
      durationMs?: number | null | undefined;
      costUsd: number | null;
    }) => ({
      id: s.id,
      toolCalls: s.toolCalls,
      errors: s.errors,
      expectedErrors: s.expectedErrors,
      messages: s.messages,
      durationMs: s.durationMs ?? null,
      costUsd: s.costUsd,
      words: formatErrors(s),
    });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(web.total).toBe(cli.sessions.length);
    expect(web.sessions.map(pick).sort(byId)).toEqual(cli.sessions.map(pick).sort(byId));
  });

  it('totals over unique calls: the sessions list, Analytics and stats agree', async () => {
    const stats = await cliJson<StatsJson>(['stats']);
    const list = await api<SessionsResponse>('/api/sessions?limit=1');
    const analytics = await api<StatsResponse>('/api/stats');
    // Sessions: those the dashboard's list shows (empty and warm-up ones hidden), in all three.
    const shown = await api<SessionsResponse>('/api/sessions?limit=1&hideEmpty=1');
    expect([stats.sessions, analytics.totals.sessions]).toEqual([shown.total, shown.total]);
    const totals = {
      calls: stats.calls,
      errors: stats.errors,
      expectedErrors: stats.expectedErrors,
    };
    expect({
      calls: list.totals.toolCalls,
      errors: list.totals.errors,
      expectedErrors: list.totals.expectedErrors,
    }).toEqual(totals);
    expect({
      calls: analytics.totals.calls,
      errors: analytics.totals.errors,
      expectedErrors: analytics.totals.expectedErrors,
    }).toEqual(totals);
  });

  it('per tool: canonical names with the written ones, the same rows in stats and Analytics', async () => {
    const stats = await cliJson<StatsJson>(['stats']);
    const analytics = await api<StatsResponse>('/api/stats');
    const cliRows = Object.values(stats.byCanonical)
      .map((t) => ({ tool: t.canonicalName, names: t.names, calls: t.calls, errors: t.errors, p50: t.durationMs.p50 }))
      .sort((a, b) => a.tool.localeCompare(b.tool));
    const webRows = analytics.tools
      .map((t) => ({ tool: t.tool, names: t.names, calls: t.calls, errors: t.errors, p50: t.p50 }))
      .sort((a, b) => a.tool.localeCompare(b.tool));
    expect(webRows).toEqual(cliRows);
    expect(webRows.some((t) => t.tool === 'Task')).toBe(false);
  });
});
