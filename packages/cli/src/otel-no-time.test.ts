/**
 * `otel status` of telemetry that carries no time (an exporter that leaves OpenTelemetry's times out), received by a
 * real OTLP receiver: a session's first and last times are unknown, so they are null (never 0, which is 1970), and
 * where some of its records have a time, those are its first and last.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndex } from '@agentdash/index';
import { startServer } from '@agentdash/server';
import { otelFixtureDir, readRecording, withoutOtlpTimes } from '@agentdash/testing/otel-recordings';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { OtelStatusJson } from './output/json-types.js';
import { run } from './run.js';

const recording = join(otelFixtureDir, '2.1.332-json');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-otel-no-time-'));
  mkdirSync(join(dir, '.claude', 'projects'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The recording's JSON requests sent to a real receiver, those `strip` chooses without their times. */
async function receive(strip: (i: number) => boolean): Promise<void> {
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  const server = await startServer({
    index,
    paths: [join(dir, '.claude')],
    host: '127.0.0.1',
    port: 0,
    otlpPort: 0,
    sessionWorker: false,
  });
  try {
    await server.indexed;
    const otlp = server.otlp;
    if (otlp === undefined || !('endpoint' in otlp)) throw new Error('the OTLP receiver is not listening');
    const requests = readRecording(recording).filter((r) => r.contentType === 'application/json');
    expect(requests.length).toBeGreaterThan(2);
    for (const [i, request] of requests.entries()) {
      const body = JSON.parse(new TextDecoder().decode(request.body)) as unknown;
      const response = await fetch(`${otlp.endpoint}${request.path}`, {
        method: 'POST',
        headers: { 'content-type': request.contentType },
        body: JSON.stringify(strip(i) ? withoutOtlpTimes(body) : body),
      });
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
  } finally {
    await server.close();
    index.close();
  }
}

async function status(json: boolean): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, '.claude') },
    homedir: dir,
    now: Date.now,
  };
  const code = await run(['otel', 'status', '--db', join(dir, 'index.sqlite'), ...(json ? ['--json'] : [])], io);
  expect(code, stderr).toBe(ExitCode.ok);
  return stdout;
}

it('telemetry without times: each session first and last are null, and the text says —, never 1970', async () => {
  await receive(() => true);
  const out = JSON.parse(await status(true)) as OtelStatusJson;
  expect(out.events).toBeGreaterThan(0);
  expect(out.telemetryOnlySessions.length).toBeGreaterThan(0);
  for (const s of out.telemetryOnlySessions)
    expect([s.sessionId, s.firstMs, s.lastMs]).toEqual([s.sessionId, null, null]);
  const text = await status(false);
  expect(text).toMatch(/telemetry only: /);
  expect(text).not.toMatch(/1970|Jan 1 /);
  for (const line of text.split('\n').filter((l) => l.startsWith('telemetry only: '))) expect(line).toMatch(/ — /);
});

it('telemetry some of whose records have times: those give the first and last, not the ones without', async () => {
  await receive(() => false);
  const timed = (JSON.parse(await status(true)) as OtelStatusJson).telemetryOnlySessions;
  rmSync(join(dir, 'index.sqlite'));
  // every other request without times: a session's known times are a subset of the timed run's
  await receive((i) => i % 2 === 0);
  const mixed = (JSON.parse(await status(true)) as OtelStatusJson).telemetryOnlySessions;
  expect(mixed.map((s) => s.sessionId).sort()).toEqual(timed.map((s) => s.sessionId).sort());
  let known = 0;
  for (const s of mixed) {
    const all = timed.find((t) => t.sessionId === s.sessionId)!;
    expect(s.firstMs === null).toBe(s.lastMs === null);
    if (s.firstMs === null || s.lastMs === null) continue;
    known++;
    expect(s.firstMs).toBeGreaterThanOrEqual(all.firstMs!);
    expect(s.lastMs).toBeLessThanOrEqual(all.lastMs!);
    expect(s.firstMs).toBeLessThanOrEqual(s.lastMs);
  }
  expect(known).toBeGreaterThan(0);
});
