import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { SESSION, writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsResponse, StatsResponse } from './api-types.js';
import { createApp } from './app.js';

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

const get = async <T>(path: string): Promise<T> => {
  const res = await app.request(path, { headers: { host: '127.0.0.1:4317' } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-stats-hidden-'));
  // One real session (a prompt, three calls) and, beside it, an empty one: a file a client created and never wrote.
  const demo = writeDemoHome(join(tmp, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
  await writeFile(
    join(demo.home, 'projects', '-home-user-proj-demo', '22222222-0000-4000-8000-000000000002.jsonl'),
    '',
  );
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([demo.home]);
  app = createApp({ index, paths: [demo.home], host: '127.0.0.1', port: 4317 });
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('Analytics counts the sessions the list shows', () => {
  it('leaves out an empty session, as the list does: 1 session, not 2', async () => {
    const list = await get<SessionsResponse>('/api/sessions?hideEmpty=1');
    expect([list.total, list.hiddenEmpty, list.sessions.map((s) => s.id)]).toEqual([1, 1, [SESSION]]);
    const stats = await get<StatsResponse>('/api/stats');
    expect([stats.totals.sessions, stats.agents.map((a) => [a.agent, a.sessions])]).toEqual([1, [['claude', 1]]]);
    // `agentdash stats` prints the index's figure.
    expect(index.stats().sessions).toBe(1);
  });
});
