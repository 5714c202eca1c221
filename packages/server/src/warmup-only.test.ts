/**
 * A session of warm-up requests alone (Claude Code 2.0.76: an empty main file, two subagent files that only warmed a
 * prompt cache): its header counted two messages and their cost while its timeline said "This session has no
 * messages yet". The API says how many warm-up requests it holds, and the page says what they were.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { SessionDetail } from './api-types.js';

const home = resolve(import.meta.dirname, '../test/fixtures/warmup-only');
let t: TestApp;

beforeAll(async () => {
  t = await appOver([home]);
});
afterAll(async () => {
  await t?.close();
});

it('gives a session of warm-up requests alone its count of them', async () => {
  const detail = await t.json<SessionDetail>('/api/sessions/fb2e6c33-0251-42e1-bcb2-32394bd1cb8e');
  expect(detail.session).toMatchObject({ warmups: 2, messages: 2, toolCalls: 0 });
  expect(detail.totalEvents).toBe(0);
});
