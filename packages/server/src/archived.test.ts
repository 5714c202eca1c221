import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionsResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');
const PORT = 4317;

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-server-archived-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('archived sessions', () => {
  it('stay listed with archived: true, and their detail and events are served from the archive', async () => {
    const home = join(tmp, 'claude-home');
    // Old timestamps, as on files Claude Code would clean up: not live before or after.
    await cp(samples, home, { recursive: true, preserveTimestamps: true });
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    try {
      await index.refresh([home]);
      const app = createApp({ index, paths: [home], host: '127.0.0.1', port: PORT });
      const get = async <T>(path: string): Promise<T> => {
        const res = await app.request(path, { headers: { host: `127.0.0.1:${PORT}` } });
        expect(res.status, path).toBe(200);
        return (await res.json()) as T;
      };
      const before = await get<SessionsResponse>('/api/sessions');
      const withCalls = before.sessions.find((s) => s.toolCalls > 0);
      if (withCalls === undefined) throw new Error('samples have a session with calls');
      const detailBefore = await get<SessionDetail>(`/api/sessions/${withCalls.id}`);
      expect(before.sessions.some((s) => s.archived)).toBe(false);

      await rm(join(home, 'projects'), { recursive: true });
      await index.refresh([home]);
      const after = await get<SessionsResponse>('/api/sessions');
      expect(after.sessions.map((s) => s.id)).toEqual(before.sessions.map((s) => s.id));
      expect(after.sessions.every((s) => s.archived)).toBe(true);
      const detailAfter = await get<SessionDetail>(`/api/sessions/${withCalls.id}`);
      expect({ ...detailAfter, session: { ...detailAfter.session, archived: false } }).toEqual(detailBefore);
      expect(detailAfter.session.archived).toBe(true);
    } finally {
      index.close();
    }
  });
});
