import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attrText, decodeOtlpRequest, type OtelRecord, signalOfOtlpPath } from '@agentdash/core';
import { openIndex } from '@agentdash/index';
import { otelFixtureDir, readRecording } from '@agentdash/testing/otel-recordings';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { OtelSetupJson, OtelStatusJson } from './output/json-types.js';
import { run } from './run.js';

let dir: string;
let claudeHome: string;
const recording = join(otelFixtureDir, '2.1.332-protobuf');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-otel-'));
  claudeHome = join(dir, '.claude');
  // The shell session's transcript only: the probe session is known from its telemetry alone.
  const shell = readdirSync(join(recording, 'claude-home/projects')).filter((f) => f.endsWith('-shell'));
  for (const folder of shell) {
    cpSync(join(recording, 'claude-home/projects', folder), join(claudeHome, 'projects', folder), { recursive: true });
  }
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `agentdash ARGS --db <the test's index>` in process, with the test's Claude home. */
async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  return { code, stdout, stderr };
}

async function json<T>(args: readonly string[]): Promise<T> {
  const { code, stdout, stderr } = await cli([...args, '--json']);
  expect(code, stderr).toBe(ExitCode.ok);
  return JSON.parse(stdout) as T;
}

it('otel setup prints the environment that points Claude Code at the receiver', async () => {
  const { env } = await json<OtelSetupJson>(['otel', 'setup', '--otlp-port', '4999']);
  expect([env.CLAUDE_CODE_ENABLE_TELEMETRY, env.OTEL_EXPORTER_OTLP_ENDPOINT, env.OTEL_LOGS_EXPORTER]).toEqual([
    '1',
    'http://127.0.0.1:4999',
    'otlp',
  ]);
  // the laptop's own receiver keeps what it gets on this machine: tool details on
  expect(env.OTEL_LOG_TOOL_DETAILS).toBe('1');
});

it('otel setup also gives the lines for Codex CLI and Gemini CLI (the recorders use the same)', async () => {
  const { codex, gemini } = await json<OtelSetupJson>(['otel', 'setup', '--otlp-port', '4999']);
  expect(codex.toml).toMatchInlineSnapshot(`
    "[otel]
    log_user_prompt = false
    exporter = { otlp-http = { endpoint = "http://127.0.0.1:4999/v1/logs", protocol = "json" } }
    trace_exporter = { otlp-http = { endpoint = "http://127.0.0.1:4999/v1/traces", protocol = "json" } }
    metrics_exporter = { otlp-http = { endpoint = "http://127.0.0.1:4999/v1/metrics", protocol = "json" } }
    "
  `);
  expect(gemini).toEqual({
    file: '~/.gemini/settings.json',
    settings: {
      telemetry: { enabled: true, target: 'local', otlpEndpoint: 'http://127.0.0.1:4999', otlpProtocol: 'http' },
    },
  });
});

it('otel setup for an agent whose telemetry AgentDash does not read says so, not Claude Code settings', async () => {
  const { code, stdout, stderr } = await cli(['otel', 'setup', '--agent', 'copilot']);
  expect([code, stdout]).toEqual([ExitCode.badArguments, '']);
  expect(stderr).toContain(
    'AgentDash reads no telemetry of Copilot CLI: otel setup has settings for Claude Code, Codex, Gemini (--agent claude|codex|gemini)',
  );
});

it('otel status counts what arrived and lists the sessions known only from telemetry', async () => {
  const records: OtelRecord[] = [];
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
    records.push(...decoded.records);
    index.telemetry.store(decoded.records);
  }
  index.close();
  const status = await json<OtelStatusJson>(['otel', 'status']);
  const shell = '94b2b53d-c3bb-4ca4-9825-3e3ee0dbcdbe';
  const named = new Set(
    records
      .flatMap((r) => (r.kind === 'event' ? [attrText(r.attributes, 'session.id')] : []))
      .filter((id) => id !== ''),
  );
  expect(status.telemetryOnlySessions.map((s) => s.sessionId).sort()).toEqual(
    [...named].filter((id) => id !== shell).sort(),
  );
  expect(status.joins.toolResultsWithCall).toBeGreaterThan(0);
  expect(status.joins.transcriptRequestsWithApiRequest).toBe(status.joins.transcriptRequests);
});

it('serve --otlp-port 0 listens on a free port and says which; otel setup refuses 0 (agents need a port)', async () => {
  const { startServe, stopServe } = await import('../test/harness.js');
  const served = await startServe([claudeHome, '--otlp-port', '0', '--no-progress'], join(dir, 'serve.sqlite'));
  try {
    if (served.url === undefined) throw new Error(`serve ended: ${served.stderr()}`);
    const setup = (await (await fetch(`${served.url}api/telemetry/setup`)).json()) as { endpoint: string };
    const port = Number(new URL(setup.endpoint).port);
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(4318);
    // the receiver is there: an empty logs request is taken
    const answer = await fetch(`${setup.endpoint}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(200);
  } finally {
    await stopServe(served.child);
  }
  const refused = await cli(['otel', 'setup', '--otlp-port', '0']);
  expect([refused.code, refused.stderr]).toEqual([
    ExitCode.badArguments,
    'agentdash: --otlp-port 0 picks a port only when a server listens: name one\n',
  ]);
  const tooHigh = await cli(['serve', '--otlp-port', '70000']);
  expect([tooHigh.code, tooHigh.stderr]).toEqual([
    ExitCode.badArguments,
    'agentdash: --otlp-port must be a port, 1 to 65535 (0 picks a free one); got "70000"\n',
  ]);
}, 60_000);
