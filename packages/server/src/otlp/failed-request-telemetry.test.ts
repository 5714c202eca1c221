/**
 * Claude Code's telemetry of a session whose only request failed (an `api_error` with its `duration_ms`): its model
 * time was the transcript's inferred figure, though the client measured it (a review helper: corpus-otel's
 * c561ff82, 128 ms measured, 1,036 ms inferred shown); and a session the telemetry routes list whose events are no
 * step (only `plugin_loaded`) answered `/steps` with a 404 "no telemetry". Real app, a real index.
 */
import { decodeOtlpRequest } from '@agentdash/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../../test/app-harness.js';

const FAILED = '0f0e0d0c-0000-4000-8000-00000000fa11';
const QUIET = '0f0e0d0c-0000-4000-8000-00000000b1a5';
const NANOS = `${BigInt(Date.UTC(2026, 10, 20, 10, 0, 0)) * 1_000_000n}`;
const text = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One Claude Code log record: event `name` of `session`, with these attributes. */
const event = (session: string, name: string, attrs: { key: string; value: unknown }[]) => ({
  timeUnixNano: NANOS,
  body: { stringValue: `claude_code.${name}` },
  attributes: [text('event.name', name), text('session.id', session), ...attrs],
});

let t: TestApp;
beforeAll(async () => {
  t = await appOver([]);
  const body = JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [text('service.name', 'claude-code')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events' },
            logRecords: [
              event(FAILED, 'api_error', [
                text('model', 'claude-opus-4-6'),
                text('error', 'Internal server error'),
                text('status_code', '500'),
                { key: 'duration_ms', value: { intValue: '128' } },
                text('request_id', 'req_failed_1'),
              ]),
              event(QUIET, 'plugin_loaded', [text('plugin.name', 'demo')]),
            ],
          },
        ],
      },
    ],
  });
  const decoded = decodeOtlpRequest({
    signal: 'logs',
    contentType: 'application/json',
    contentEncoding: '',
    body: Buffer.from(body),
  });
  expect(decoded.ok).toBe(true);
  t.index.telemetry.store(decoded.records);
});
afterAll(() => t.close());

it("gives a session whose only request failed the client's measured model time", async () => {
  const figures = await t.json<{ modelTime: { ms: number; source: string }; telemetry: { apiErrors: number } }>(
    `/api/telemetry/sessions/${FAILED}`,
  );
  expect([figures.modelTime, figures.telemetry.apiErrors]).toEqual([{ ms: 128, source: 'measured' }, 1]);
});

it('answers the steps of a listed session without any as none, not "no telemetry"', async () => {
  const steps = await t.json<{ steps: unknown[] }>(`/api/telemetry/sessions/${QUIET}/steps`);
  expect(steps.steps).toEqual([]);
  const res = await t.app.request('/api/telemetry/sessions/no-such-session/steps', {
    headers: { host: '127.0.0.1:4317' },
  });
  expect(res.status).toBe(404);
});
