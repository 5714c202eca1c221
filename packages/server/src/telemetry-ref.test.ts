/**
 * The telemetry routes read a session reference as the session routes do: within the served sources. The same
 * sessions under two folders the index holds (two clones' bundled samples), a bare id names one served session for
 * `/api/sessions/:id` but was ambiguous for `/api/telemetry/measured/:id`: a 409 on every session page opened by its
 * id (seen in Chromium on a second clone sharing the first's index).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { repoRoot } from '@agentdash/testing/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from './app.js';

const SAMPLES = resolve(repoRoot, 'packages/cli/samples/claude-home');
const ID = '5546c9dc-f77a-4128-bec8-c0c6a466b9a7';
let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-telemetry-ref-'));
  for (const clone of ['one', 'two']) cpSync(SAMPLES, join(dir, clone), { recursive: true });
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([join(dir, 'one'), join(dir, 'two')]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a bare id the served sources make one session, as the session route does', async () => {
  const app = createApp({ index, paths: [join(dir, 'two')], host: '127.0.0.1', port: 4317, assetsDir: dir });
  const get = (path: string) => app.request(path, { headers: { host: '127.0.0.1:4317' } });
  expect((await get(`/api/sessions/${ID}`)).status).toBe(200);
  const measured = await get(`/api/telemetry/measured/${ID}`);
  expect(measured.status).toBe(200);
  expect(await measured.json()).toEqual({ telemetry: null });
});
