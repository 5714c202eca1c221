/**
 * `GET /api/sessions/:id/versions` and `…/versions/partial` over a real index whose transcript was cut short on
 * disk: the session is served at its last complete version, and the newer partial copy is listed and served.
 */
import { cp, mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from '@agentdash/core';
import { type AgentIndex, openIndex, type SessionVersions } from '@agentdash/index';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
const PORT = 4318;

let tmp: string;
let home: string;
let index: AgentIndex;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-versions-'));
  home = join(tmp, 'claude-home');
  await cp(samples, home, { recursive: true, preserveTimestamps: true });
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
});
afterEach(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a session whose transcript was cut short on disk', () => {
  it('is served complete; its partial copy is listed and served on asking', async () => {
    const file = join(home, 'projects', '-home-user-proj-files', `${SESSION}.jsonl`);
    await index.refresh([home]);
    const app = createApp({ index, paths: [home], host: '127.0.0.1', port: PORT });
    const request = (path: string) => app.request(path, { headers: { host: `127.0.0.1:${PORT}` } });
    const get = async <T>(path: string): Promise<T> => {
      const res = await request(path);
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    };
    const detail = await get<SessionDetail>(`/api/sessions/${SESSION}`);
    expect(await get<SessionVersions>(`/api/sessions/${SESSION}/versions`)).toEqual({ sessionId: SESSION, held: [] });
    expect((await request(`/api/sessions/${SESSION}/versions/partial`)).status).toBe(404);

    const bytes = await readFile(file);
    const cut = bytes.subarray(0, Math.floor(bytes.length / 3)).lastIndexOf(0x0a) + 1;
    await truncate(file, cut);
    await index.refresh([home]);

    expect((await get<SessionDetail>(`/api/sessions/${SESSION}`)).counts).toEqual(detail.counts);
    const versions = await get<SessionVersions>(`/api/sessions/${SESSION}/versions`);
    expect(versions.held.map((h) => [h.path, h.complete.bytes, h.partial.bytes])).toEqual([[file, bytes.length, cut]]);

    const partial = await get<Session>(`/api/sessions/${SESSION}/versions/partial`);
    const lines = bytes.subarray(0, cut).toString('utf8').split('\n').filter(Boolean).length;
    expect(partial.counts.records).toBe(lines);
    expect(partial.counts.toolCalls).toBeLessThan(detail.counts.toolCalls);

    const envelope = await request(`/api/sessions/${SESSION}/versions/partial?format=envelope`);
    expect([envelope.status, envelope.headers.get('content-disposition')]).toEqual([
      200,
      'attachment; filename="agentdash-0097a0c6-partial.jsonl"',
    ]);
    expect((await envelope.text()).split('\n').filter(Boolean)).toHaveLength(partial.counts.toolCalls);
    expect((await request(`/api/sessions/${SESSION}/versions/partial?format=pdf`)).status).toBe(400);
  });
});
