import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRow, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

let tmp: string;
let index: AgentIndex;
let app: ReturnType<typeof createApp>;

const list = async (query: string): Promise<SessionsResponse> => {
  const res = await app.request(`/api/sessions?limit=1000${query}`, { headers: { host: '127.0.0.1:4317' } });
  expect(res.status).toBe(200);
  return (await res.json()) as SessionsResponse;
};

// the list's rule (index read/scope.ts `shownSession`): no call of its own, and no message of its own or no title
const isEmpty = (r: SessionRow) => r.toolCalls === 0 && (r.messages === 0 || !r.title);

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-hide-'));
  const home = join(tmp, 'home');
  await cp(samples, home, { recursive: true });
  // Two stubs as real homes hold them: an empty file, and a session of a cancelled /resume (no prompt, no call).
  const stubs = join(home, 'projects', '-tmp-stubs');
  await mkdir(stubs, { recursive: true });
  await writeFile(join(stubs, '11111111-0000-4000-8000-000000000001.jsonl'), '');
  const base = {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/tmp/stubs',
    sessionId: '11111111-0000-4000-8000-000000000002',
    version: '2.0.69',
    type: 'system',
    subtype: 'local_command',
    level: 'info',
    timestamp: '2025-12-13T03:19:02.566Z',
    isMeta: false,
  };
  const lines = [
    { ...base, uuid: 'a1', content: '<command-name>/resume</command-name>' },
    { ...base, parentUuid: 'a1', uuid: 'a2', content: '<local-command-stdout>Resume cancelled</local-command-stdout>' },
  ];
  await writeFile(join(stubs, `${base.sessionId}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
  await index.refresh([home]);
  app = createApp({ index, paths: [home], host: '127.0.0.1', port: 4317 });
});

afterAll(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('GET /api/sessions?hideEmpty=1', () => {
  it('leaves out exactly the empty and untitled call-less sessions, and says how many', async () => {
    const all = await list('');
    const shown = await list('&hideEmpty=1');
    const expected = all.sessions.filter((r) => !isEmpty(r)).map((r) => r.id);
    expect(shown.sessions.map((r) => r.id)).toEqual(expected);
    expect(shown.total).toBe(expected.length);
    expect(shown.hiddenEmpty).toBe(all.total - expected.length);
    expect(all.hiddenEmpty).toBeUndefined();
    expect(all.sessions.some(isEmpty)).toBe(true);
  });
});
