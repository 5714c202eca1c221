/**
 * A session stops being live when its agent stops writing (nothing for `LIVE_WINDOW_MS`), which changes no file: the
 * live events say so, so that an open dashboard drops its live badge and shows its unanswered call as such. Before,
 * both stayed until some other file changed.
 */
import { appendFile, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIVE_WINDOW_MS, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES, untilSeen as until } from '../test/app-harness.js';
import type { LiveMessage } from './api-types.js';
import { createLiveEvents } from './live.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-live-expiry-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a live session that goes quiet', () => {
  it('is said updated once it is no longer live, with no file changed', async () => {
    const home = join(tmp, 'home');
    const project = join(home, 'projects', '-home-user-proj-shell');
    await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), project, { recursive: true });
    const file = (await readdir(project)).find((f) => f.endsWith('.jsonl'))!;
    const id = file.replace(/\.jsonl$/, '');
    let clock = Date.now();
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite'), now: () => clock });
    await index.refresh([home]);
    const events = createLiveEvents({ index, paths: [home], watch: false, liveCheckMs: 20 });
    const seen: LiveMessage[] = [];
    events.subscribe((m) => seen.push(m));
    try {
      const lines = (await readFile(join(project, file), 'utf8')).trim().split('\n');
      const last = JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
      const call = {
        ...last,
        type: 'assistant',
        uuid: '00000000-0000-4000-8000-0000000000e1',
        parentUuid: last.uuid ?? null,
        timestamp: new Date(clock).toISOString(),
        message: {
          id: 'msg_quiet',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [{ type: 'tool_use', id: 'toolu_quiet', name: 'Bash', input: { command: 'sleep 600' } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      };
      await appendFile(join(project, file), `${JSON.stringify(call)}\n`);
      await events.refresh([join(project, file)]);
      await until('the append', seen, (m) => m.type === 'session-updated' && m.sessionId === id);
      const isLive = () => index.listSessions({ ids: [id] }).map((s) => s.isLive);
      expect(isLive()).toEqual([true]);

      seen.length = 0;
      // past the window from the newest record and from the append (on the real clock, a little after `clock`)
      clock = Date.now() + LIVE_WINDOW_MS + 1_000;
      await until('the end of live', seen, (m) => m.type === 'sessions-changed');
      expect([isLive(), seen]).toEqual([
        [false],
        [{ type: 'session-updated', sessionId: id }, { type: 'sessions-changed' }],
      ]);
    } finally {
      events.close();
      index.close();
    }
  });
});
