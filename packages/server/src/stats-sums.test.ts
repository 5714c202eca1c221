/**
 * `GET /api/stats` over a real index: every grouping (tools, time buckets, projects) sums to the totals, calls, errors
 * and expected errors alike, so a reader adding up the rows gets the figure the cards show; an agent's row counts as
 * the totals do.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { bundledHomes, sharedDir } from '@agentdash/testing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsResponse } from './api-types.js';
import { createApp } from './app.js';

/** The bundled homes (several agents), and a corpus version where `../shared` is present (permission denials). */
const homes = [...bundledHomes, join(sharedDir, 'corpus', '2.1.330', 'claude-home')].filter((home) => existsSync(home));

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;
let stats: StatsResponse;

const get = async (path: string): Promise<StatsResponse> => {
  const res = await app.request(path, { headers: { host: '127.0.0.1:4317' } });
  expect(res.status).toBe(200);
  return (await res.json()) as StatsResponse;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-stats-sums-'));
  const dbPath = join(tmp, 'index.sqlite');
  await copyOfIndex(homes, dbPath);
  index = openIndex({ dbPath });
  app = createApp({ index, paths: homes, host: '127.0.0.1', port: 4317 });
  stats = await get('/api/stats?tz=UTC');
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

type Counts = { readonly calls: number; readonly errors: number; readonly expectedErrors: number };
const countsOf = (r: Counts): Counts => ({ calls: r.calls, errors: r.errors, expectedErrors: r.expectedErrors });
const sum = (rows: readonly Counts[]): Counts => ({
  calls: rows.reduce((n, r) => n + r.calls, 0),
  errors: rows.reduce((n, r) => n + r.errors, 0),
  expectedErrors: rows.reduce((n, r) => n + r.expectedErrors, 0),
});

describe('GET /api/stats: the rows add up to the totals', () => {
  it('has errors of both kinds to add up', () => {
    expect(stats.totals.expectedErrors).toBeGreaterThan(0);
    expect(stats.totals.errors).toBeGreaterThan(stats.totals.expectedErrors);
    expect(stats.agents.length).toBeGreaterThan(1);
  });

  it('tools, time buckets and projects each sum to the totals', () => {
    const totals = countsOf(stats.totals);
    expect({ tools: sum(stats.tools), days: sum(stats.days), projects: sum(stats.projects) }).toEqual({
      tools: totals,
      days: totals,
      projects: totals,
    });
  });

  it("counts an agent's row as the totals: one agent's scope gives the same figures twice", async () => {
    const claude = await get('/api/stats?agent=claude&tz=UTC');
    expect(claude.totals.expectedErrors).toBeGreaterThan(0);
    expect(claude.agents.map(countsOf)).toEqual([countsOf(claude.totals)]);
  });

  it("gives each agent's rate as its tools' rates are given: errors over calls", () => {
    const rates = [...stats.agents, ...stats.tools].map((r) => [r.errorRate, r.calls === 0 ? 0 : r.errors / r.calls]);
    expect(rates.map(([rate]) => rate)).toEqual(rates.map(([, expected]) => expected));
  });
});
