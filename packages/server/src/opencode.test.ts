import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsResponse, CallDto, EventsPage, SessionDetail, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const homes = [resolve(here, '../../core/test/fixtures/opencode/1.18.33/opencode-home')];
const PORT = 4321;
const HOST = { host: `127.0.0.1:${PORT}` };

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

const json = async <T>(path: string): Promise<T> => {
  const res = await app.request(path, { headers: HOST });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-opencode-'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh(homes);
  app = createApp({ index, paths: homes, host: '127.0.0.1', port: PORT, assetsDir: join(tmp, 'no-assets') });
});
afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

const typedOf = (c: CallDto) => (c.result?.typed ?? {}) as { kind?: string; data?: { exitCode?: number } };

async function callsOf(id: string): Promise<CallDto[]> {
  const page = await json<EventsPage>(`/api/sessions/${encodeURIComponent(id)}/events?offset=0&limit=500`);
  return page.events.flatMap((e) =>
    e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
  );
}

describe('OpenCode sessions through the API', () => {
  it('names the agent, its label and resume words', async () => {
    const { agents } = await json<AgentsResponse>('/api/agents');
    expect(agents.find((a) => a.id === 'opencode')).toEqual({
      id: 'opencode',
      label: 'OpenCode',
      resume: ['opencode', '--session'],
    });
  });

  it('lists them with agent opencode, and filters by agent', async () => {
    const all = await json<SessionsResponse>('/api/sessions?agent=opencode');
    expect(all.sessions.map((s) => s.projectPath).sort()).toEqual(
      ['api-error', 'files', 'long', 'mcp', 'parallel', 'resume', 'shell', 'subagent'].map(
        (name) => `/home/user/proj/${name}`,
      ),
    );
    expect(new Set(all.sessions.map((s) => s.agent))).toEqual(new Set(['opencode']));
    expect((await json<SessionsResponse>('/api/sessions?agent=qwen')).sessions).toEqual([]);
    const long = all.sessions.find((s) => s.projectPath === '/home/user/proj/long');
    expect(long?.toolCalls).toBe(100);
  });

  it('opens a session with each call typed by its kind, a non-zero exit a failed call with its code', async () => {
    const list = await json<SessionsResponse>('/api/sessions?agent=opencode');
    const shell = list.sessions.find((s) => s.projectPath === '/home/user/proj/shell');
    const detail = await json<SessionDetail>(`/api/sessions/${encodeURIComponent(shell?.id ?? '')}`);
    expect(detail.session.agent).toBe('opencode');
    expect(detail.session.errors).toBe(2);
    const calls = await callsOf(shell?.id ?? '');
    const exitOf = (c: CallDto) => (c.status === 'ok' ? typedOf(c).data?.exitCode : c.result?.error?.exitCode);
    const row = (c: CallDto) => [c.toolKind, c.status, typedOf(c).kind, c.result?.error?.category ?? null, exitOf(c)];
    expect(calls.map(row)).toEqual([
      ['bash', 'ok', 'bash', null, 0],
      ['bash', 'error', 'error', 'exit-code', 2],
      ['bash', 'ok', 'bash', null, 1],
      ['bash', 'error', 'error', 'exit-code', 3],
    ]);
    for (const call of calls) expect(call.durationMs).toBeGreaterThanOrEqual(0);
    const files = list.sessions.find((s) => s.projectPath === '/home/user/proj/files');
    const kinds = (await callsOf(files?.id ?? '')).map((c) => `${c.name}:${c.status}:${typedOf(c).kind}`);
    expect(kinds).toEqual([
      'write:ok:write',
      'read:ok:read',
      'glob:ok:glob',
      'grep:ok:grep',
      'read:ok:read',
      'edit:ok:edit',
      'edit:error:error',
      'read:error:error',
    ]);
    const mcp = list.sessions.find((s) => s.projectPath === '/home/user/proj/mcp');
    const mcpCalls = (await callsOf(mcp?.id ?? '')).map((c) => [c.name, c.status, typedOf(c).kind]);
    expect(mcpCalls).toEqual([
      ['rec_echo', 'ok', 'mcp'],
      ['rec_fail', 'error', 'mcp'],
    ]);
  });

  it('shows the subagent session inside its caller, its task call typed as an agent run', async () => {
    const list = await json<SessionsResponse>('/api/sessions?agent=opencode');
    const sub = list.sessions.find((s) => s.projectPath === '/home/user/proj/subagent');
    const names = (await callsOf(sub?.id ?? '')).map((c) => `${c.name}:${typedOf(c).kind}`);
    expect(names).toContain('task:agent');
    expect(sub?.toolCalls).toBe(2);
  });
});
