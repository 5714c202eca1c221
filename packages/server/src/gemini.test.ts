import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDto, EventsPage, SessionDetail, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const gemini = resolve(here, '../../core/test/fixtures/gemini');
const homes = [join(gemini, '0.61.0/.gemini'), join(gemini, '0.20.2/.gemini')];
const PORT = 4318;
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
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-gemini-'));
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

describe('Gemini sessions through the API', () => {
  it('lists them with their agent, and filters by agent', async () => {
    const all = await json<SessionsResponse>('/api/sessions?agent=gemini');
    // 0.61's stub of a resume is no session (its file has a resume_stub issue).
    expect(all.sessions.length).toBe(20);
    expect(new Set(all.sessions.map((s) => s.agent))).toEqual(new Set(['gemini']));
    expect((await json<SessionsResponse>('/api/sessions?agent=codex')).sessions).toEqual([]);
  });

  it("opens a resumed session by the short id the list shows, not refused for its resume stub's match", async () => {
    const detail = await json<SessionDetail>('/api/sessions/85ed09f1');
    expect(detail.session.id).toBe('85ed09f1-51f6-47b8-99d1-7e4d7e9935b6');
  });

  it('opens a session with each call typed by its kind, a non-zero exit a failed call with its code', async () => {
    const list = await json<SessionsResponse>('/api/sessions?agent=gemini');
    const shell = list.sessions.find((s) => s.projectPath === '/home/user/proj/shell');
    const detail = await json<SessionDetail>(`/api/sessions/${encodeURIComponent(shell?.id ?? '')}`);
    expect(detail.session.agent).toBe('gemini');
    expect(detail.session.errors).toBe(2);
    const calls = await callsOf(shell?.id ?? '');
    // `ls /nonexistent-dir-rec` exits 2 and `echo … >&2; exit 3` exits 3: failed calls, as Claude Code's Bash.
    const exitOf = (c: CallDto) => (c.status === 'ok' ? typedOf(c).data?.exitCode : c.result?.error?.exitCode);
    expect(calls.map((c) => [c.name, c.status, typedOf(c).kind, c.result?.error?.category ?? null, exitOf(c)])).toEqual(
      [
        ['run_shell_command', 'ok', 'bash', null, 0],
        ['run_shell_command', 'error', 'error', 'exit-code', 2],
        ['run_shell_command', 'error', 'error', 'exit-code', 3],
        ['run_shell_command', 'ok', 'bash', null, 0],
        ['run_shell_command', 'ok', 'bash', null, 0],
      ],
    );
    expect(calls[2]?.result?.error?.message).toMatch(/^Exit code 3\n[\s\S]*to stderr/);
    const edit = list.sessions.find((s) => s.projectPath === '/home/user/proj/edit');
    const kinds = (await callsOf(edit?.id ?? '')).map((c) => `${c.name}:${typedOf(c).kind}`);
    expect(kinds).toEqual([
      'write_file:write',
      'replace:edit',
      'replace:error',
      'write_file:write',
      'replace:edit',
      'read_file:read',
    ]);
  });
});
