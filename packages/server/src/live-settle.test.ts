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

/** A copy of the samples' two shell sessions, indexed, with live events over it (no watcher: refreshes are asked). */
async function served(name: string) {
  const home = join(tmp, name);
  const project = join(home, 'projects', '-home-user-proj-shell');
  await cp(join(SAMPLES, 'projects', '-home-user-proj-shell'), project, { recursive: true });
  const names = (await readdir(project)).filter((f) => f.endsWith('.jsonl')).sort();
  const index = openIndex({ dbPath: join(tmp, `${name}.sqlite`) });
  await index.refresh([home]);
  const events = createLiveEvents({ index, paths: [home], watch: false, minIntervalMs: 0 });
  const seen: LiveMessage[] = [];
  events.subscribe((m) => seen.push(m));
  const files = names.map((n) => join(project, n));
  const idOf = (file: string) => file.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, '');
  const issuesOf = (file: string) => index.listSessions({ ids: [idOf(file)] }).map((s) => s.issues);
  return { index, events, seen, files, idOf, issuesOf };
}

/**
 * The writer stops mid-record; the file was written a little less than the settle time ago, so the refresh of its
 * change holds the line back silently, and it settles a moment later.
 */
async function cutShort(file: string): Promise<void> {
  await appendFile(file, '{"type":"assistant","uuid":"cut-short","message":{"content":[{"type":"te');
  const written = new Date(Date.now() - WRITE_SETTLE_MS + 2_000);
  await utimes(file, written, written);
}

describe('a record left cut short while the dashboard is open', () => {
  it('is reported once its file settles, with no change to the file', async () => {
    const { index, events, seen, files, idOf, issuesOf } = await served('alone');
    const file = files[0]!;
    try {
      const before = issuesOf(file);
      await cutShort(file);
      await events.refresh([file]);
      expect(index.heldWhileWriting([file])).toEqual([file]);
      expect(issuesOf(file)).toEqual(before);

      seen.length = 0;
      await until('the settled file', seen, (m) => m.type === 'session-updated' && m.sessionId === idOf(file));
      expect(issuesOf(file)).toEqual([before[0]! + 1]);
      expect(index.heldWhileWriting([file])).toEqual([]);
      const problems = index.loadSession(idOf(file)).then((s) => s.issues.map((i) => `${i.code} ${i.line}`));
      expect((await problems).some((p) => p.startsWith('invalid_json '))).toBe(true);
    } finally {
      events.close();
      index.close();
    }
  });

  it('is reported too when other files change while it settles', async () => {
    const { index, events, seen, files, idOf, issuesOf } = await served('beside');
    const [file, other] = files as [string, string];
    try {
      const before = issuesOf(file);
      await cutShort(file);
      await events.refresh([file]);
      // another session written to, and a full refresh, before the held file settles
      await appendFile(other, '\n');
      await events.refresh([other]);
      await events.refresh();
      expect(index.heldWhileWriting([file])).toEqual([file]);
      seen.length = 0;
      await until('the settled file', seen, (m) => m.type === 'session-updated' && m.sessionId === idOf(file));
      // Before: each refresh set the timer again with nothing new to wait for, at once; the file was read while still
      // held and never again.
      expect(issuesOf(file)).toEqual([before[0]! + 1]);
      expect(index.heldWhileWriting([file])).toEqual([]);
    } finally {
      events.close();
      index.close();
    }
  });
});
