/**
 * The index's file deleted or replaced under a running `serve` (a review helper: `rm index.db*` beside `serve` left
 * it writing to a deleted file, archiving what would be lost at exit, with no word; a file another process moved
 * aside as damaged left it failing until restarted): the status says so, and what to do.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentIndex } from '@agentdash/index';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { samplesCopy } from '../test/app-harness.js';
import type { HealthResponse } from './api-types.js';
import { refreshErrorText } from './index-state.js';
import { type RunningServer, startServer } from './server.js';

let copy: Awaited<ReturnType<typeof samplesCopy>>;
let index: AgentIndex;
let tmp: string;
let server: RunningServer | undefined;
beforeEach(async () => {
  copy = await samplesCopy(false);
  ({ index, tmp } = copy);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await copy.close();
});

it('says the index file was deleted under it, and to restart', async () => {
  server = await startServer({ index, paths: [join(tmp, 'home')], host: '127.0.0.1', port: 0 });
  await server.indexed;
  const error = async () => ((await (await fetch(`${server!.url}api/health`)).json()) as HealthResponse).index.error;
  expect(await error()).toBeNull();
  for (const suffix of ['', '-wal', '-shm']) await rm(join(tmp, `index.sqlite${suffix}`), { force: true });
  let said: string | null = null;
  for (let i = 0; i < 100 && said === null; i++) {
    await new Promise((r) => setTimeout(r, 50));
    said = await error();
  }
  expect(said).toMatch(/index\.sqlite was deleted or replaced while this server ran: restart agentdash serve/);
  // a real server and its threads, then up to 5 s of polls: past the 5 s default on a loaded machine
}, 30_000);

it('says what mends a damaged index file', () => {
  // SQLite's error for damaged pages, as better-sqlite3 throws it (the index's rule reads its code)
  const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
  expect(refreshErrorText(corrupt)).toBe(
    'database disk image is malformed: the index file is damaged; stop agentdash serve, then `agentdash index --rebuild` moves the file aside (kept) and builds the index again from the transcripts, with what still reads of its archive',
  );
  expect(refreshErrorText(Object.assign(new Error('disk full.'), { code: 'SQLITE_FULL' }))).toBe('disk full.');
});
