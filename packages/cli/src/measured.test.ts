/**
 * `sessions` and `stats` with Claude Code's telemetry in the index: the measured model and tool time of each session
 * that has some (`--json` `measured`, additive), and the measured tool runs of the sessions in scope.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrNumber, attrText, decodeOtlpRequest, type OtelEvent, signalOfOtlpPath } from '@agentdash/core';
import { openIndex } from '@agentdash/index';
import { otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { SessionsJson, StatsJson } from './output/json-types.js';
import { run } from './run.js';

const recording = join(otelFixtureDir, '2.1.332-json');
let dir: string;
let claudeHome: string;
const events: OtelEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-measured-'));
  claudeHome = join(dir, '.claude');
  for (const folder of readdirSync(join(recording, 'claude-home/projects'))) {
    cpSync(join(recording, 'claude-home/projects', folder), join(claudeHome, 'projects', folder), { recursive: true });
  }
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  for (const request of readRecording(recording)) {
    const signal = signalOfOtlpPath(request.path);
    if (signal === null) continue;
    const decoded = decodeOtlpRequest({
      signal,
      contentType: request.contentType,
      contentEncoding: '',
      body: request.body,
    });
    index.telemetry.store(decoded.records);
    events.push(...decoded.records.filter((r): r is OtelEvent => r.kind === 'event'));
  }
  index.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 200 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  expect(code, stderr).toBe(ExitCode.ok);
  return stdout;
}

/** The client's own sums per session, straight from the decoded events (independent of the index's SQL). */
function sumsOf(sessionId: string) {
  const mine = events.filter((r) => attrText(r.attributes, 'session.id') === sessionId);
  const sum = (name: string, key: string) =>
    mine.filter((r) => r.name === name).reduce((n, r) => n + (attrNumber(r.attributes, key) ?? 0), 0);
  const count = (name: string) => mine.filter((r) => r.name === name).length;
  return {
    apiRequests: count('api_request'),
    modelMs: sum('api_request', 'duration_ms'),
    toolCalls: count('tool_result'),
    toolMs: sum('tool_result', 'duration_ms'),
  };
}

it('sessions --json adds each session’s measured model and tool time; the table says how many have it', async () => {
  const { sessions } = JSON.parse(await cli(['sessions', '--json'])) as SessionsJson;
  expect(sessions.length).toBe(2);
  for (const s of sessions) {
    const { costUsd, ...measured } = s.measured ?? { costUsd: Number.NaN };
    expect([s.id, measured]).toEqual([s.id, sumsOf(s.id)]);
    expect(costUsd).toBeGreaterThan(0);
  }
  const text = await cli(['sessions']);
  expect(
    text
      .split('\n')
      .filter((l) => l.includes('with agent telemetry'))
      .map((l) => l.split(':')[0]),
  ).toEqual(['2 with agent telemetry']);
});

it('stats --json adds the measured tool runs of the sessions in scope', async () => {
  const stats = JSON.parse(await cli(['stats', '--json'])) as StatsJson;
  const runs = events.filter((r) => r.name === 'tool_result');
  const sessions = new Set(runs.map((r) => attrText(r.attributes, 'session.id')));
  expect([stats.measured?.calls, stats.measured?.sessions]).toEqual([runs.length, sessions.size]);
  const bash = runs.filter((r) => attrText(r.attributes, 'tool_name') === 'Bash');
  expect(stats.measured?.byTool.Bash?.calls).toBe(bash.length);
  const max = Math.max(...bash.map((r) => attrNumber(r.attributes, 'duration_ms') ?? 0));
  expect(stats.measured?.byTool.Bash?.durationMs.max).toBe(max);
  // a project filter leaves the other session's runs out: the probe session ran no tool
  const probe = JSON.parse(await cli(['stats', '--project', 'probe', '--json'])) as StatsJson;
  expect([probe.calls, probe.measured]).toEqual([0, undefined]);
  const text = await cli(['stats']);
  expect(text.split('\n').filter((l) => l.startsWith('measured by'))).toEqual([
    expect.stringMatching(new RegExp(`^measured by the agents' telemetry: ${runs.length} runs in 1 session, p50 `)),
  ]);
});
