/**
 * The Usage page's rows say where a cost is a lower bound (`+ ?`) as its totals do: a model's row and a top session's
 * named none of the gaps, so the totals read "$165.93 + ?" over model rows without it (review in Chromium over
 * ../shared). Fixtures: Copilot CLI 1.0.64/1.0.68 files (output tokens only: input unrecorded) beside Claude Code's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { repoRoot } from '@agentdash/testing/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UsageResponse } from './api-types.js';
import { createApp } from './app.js';

const copilot = resolve(repoRoot, 'packages/core/test/fixtures/copilot/wild/entire-agentv-1');
const claude = resolve(repoRoot, 'packages/core/test/fixtures/usage');
let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-usage-gaps-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([copilot, claude]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

it("names each model row's and top session's gaps, as the totals name them", async () => {
  const app = createApp({ index, paths: [copilot, claude], host: '127.0.0.1', port: 4317, assetsDir: dir });
  const res = await app.request('/api/usage', { headers: { host: '127.0.0.1:4317' } });
  const usage = (await res.json()) as UsageResponse;
  const unrecorded = usage.totals.inputUnrecordedModels ?? [];
  expect(unrecorded.length).toBeGreaterThan(0);
  expect(usage.models.length).toBeGreaterThan(unrecorded.length);
  for (const m of usage.models) {
    expect(m.inputUnrecordedModels, m.model).toEqual(unrecorded.includes(m.model) ? [m.model] : undefined);
  }
  const bounded = usage.topSessions.filter((s) => (s.inputUnrecordedModels ?? []).length > 0);
  expect(bounded.length).toBeGreaterThan(0);
  expect(bounded.every((s) => s.inputUnrecordedModels?.every((m) => unrecorded.includes(m)))).toBe(true);
});
