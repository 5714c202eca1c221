/**
 * A transcript whose writer stopped in the middle of a record: the refresh that met it while it was still being
 * written held its last bytes back without a word (the line may yet be finished). Nothing changes the file after, so
 * no watcher event reads it again: the live events read it once it has settled, and the cut record is reported.
 * Before, a dashboard left open never said anything of it.
 */
import { appendFile, cp, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WRITE_SETTLE_MS } from '@agentdash/core';
import { openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES, untilSeen as until } from '../test/app-harness.js';
import type { LiveMessage } from './api-types.js';
import { createLiveEvents } from './live.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-live-settle-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('a record left cut short while the dashboard is open', () => {
  it('is reported once its file settles, with no change to the file', async () => {
    const home = join(tmp, 'home');
    const project = join(home, 'projects', '-home-user-proj-shell');
    await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), project, { recursive: true });
    const name = (await readdir(project)).find((f) => f.endsWith('.jsonl'))!;
    const id = name.replace(/\.jsonl$/, '');
    const file = join(project, name);
    const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
    await index.refresh([home]);
    const events = createLiveEvents({ index, paths: [home], watch: false, minIntervalMs: 0 });
    const seen: LiveMessage[] = [];
    events.subscribe((m) => seen.push(m));
    try {
      const issuesOf = () => index.listSessions({ ids: [id] }).map((s) => s.issues);
      const before = issuesOf();
      // The writer stops mid-record; the file was written a little less than the settle time ago, so the refresh
      // of its change holds the line back silently, and it settles a moment later.
      await appendFile(file, '{"type":"assistant","uuid":"cut-short","message":{"content":[{"type":"te');
      const written = new Date(Date.now() - WRITE_SETTLE_MS + 600);
      await utimes(file, written, written);
      await events.refresh([file]);
      expect(index.heldWhileWriting([file])).toEqual([file]);
      expect(issuesOf()).toEqual(before);

      seen.length = 0;
      await until('the settled file', seen, (m) => m.type === 'session-updated' && m.sessionId === id);
      expect(issuesOf()).toEqual([before[0]! + 1]);
      expect(index.heldWhileWriting([file])).toEqual([]);
      const problems = index.loadSession(id).then((s) => s.issues.map((i) => `${i.code} ${i.line}`));
      expect((await problems).some((p) => p.startsWith('invalid_json '))).toBe(true);
    } finally {
      events.close();
      index.close();
    }
  });
});
