/**
 * `serve` beside an `agentdash index --rebuild` in another process (a review helper: the list showed 0, then 63 of
 * 168 sessions with no word, and stayed so after the build ended, no event arriving): the status says another
 * process builds the index, with its counts, lists are told to read again as it commits, and once more at its end.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AgentIndex } from '@agentdash/index';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { samplesCopy } from '../test/app-harness.js';
import type { HealthResponse, IndexStatus, LiveMessage } from './api-types.js';
import { type RunningServer, startServer } from './server.js';

let copy: Awaited<ReturnType<typeof samplesCopy>>;
let index: AgentIndex;
let tmp: string;
let server: RunningServer | undefined;
beforeEach(async () => {
  copy = await samplesCopy(true);
  ({ index, tmp } = copy);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await copy.close();
});

/** What another process's build writes in the database on each commit (write/building.ts), or its end. */
function otherBuild(progress: { filesDone: number; filesTotal: number } | undefined): void {
  const db = new Database(join(tmp, 'index.sqlite'));
  if (progress === undefined) db.prepare("DELETE FROM settings WHERE key = 'building'").run();
  else {
    // the parent of this test's process: alive, on this host, and not this process
    const row = { pid: process.ppid, host: hostname(), at: Date.now(), ...progress };
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('building', ?)").run(JSON.stringify(row));
  }
  db.close();
}

it('says another process is building the index, and tells lists to read again when it ends', async () => {
  server = await startServer({ index, paths: [join(tmp, 'home')], host: '127.0.0.1', port: 0, refreshOnStart: false });
  const health = async (): Promise<IndexStatus> =>
    ((await (await fetch(`${server!.url}api/health`)).json()) as HealthResponse).index;
  expect(await health()).toMatchObject({ state: 'ready' });
  expect((await health()).elsewhere).toBeUndefined();

  const abort = new AbortController();
  const response = await fetch(`${server.url}api/events`, { signal: abort.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  // Read in the background: a read abandoned by a timeout would drop what it brought.
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      text += value;
    }
  })();
  const messages = (): LiveMessage[] =>
    text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as LiveMessage);
  const until = async (predicate: (m: LiveMessage) => boolean) => {
    for (let i = 0; i < 200 && !messages().some(predicate); i++) await new Promise((r) => setTimeout(r, 50));
    return messages().some(predicate);
  };

  otherBuild({ filesDone: 3, filesTotal: 12 });
  expect(await until((m) => m.type === 'index-progress' && m.index.elsewhere === true)).toBe(true);
  expect(await health()).toMatchObject({ state: 'indexing', filesDone: 3, filesTotal: 12, elsewhere: true });
  expect(await until((m) => m.type === 'sessions-changed')).toBe(true);

  text = '';
  otherBuild(undefined);
  expect(await until((m) => m.type === 'index-progress' && m.index.state === 'ready')).toBe(true);
  expect(await until((m) => m.type === 'sessions-changed')).toBe(true);
  expect((await health()).elsewhere).toBeUndefined();
  abort.abort();
});
