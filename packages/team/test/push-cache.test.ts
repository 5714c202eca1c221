/**
 * A full-tier push whose chunk names come from the laptop's cache (push-chunks.json), to a server that lacks the
 * chunks (a new server, an erased person, a tier raised): the chunks the server lacks are asked about together, not
 * session by session, so the push makes about the requests a push without the cache makes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FileCache } from '../src/push/file-cache.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../../cli/samples/claude-home');

pgSuite('a push with a chunk cache to a server without the chunks (real PostgreSQL, real HTTP)', () => {
  let dir: string;
  let index: AgentIndex;
  const teams: TeamFixture[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-cache-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([SAMPLES]);
  });
  afterAll(async () => {
    index?.close();
    for (const t of teams) await t.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('asks about the lacking chunks together, as a push without the cache does', async () => {
    const fresh = async () => {
      const team = await startTeam();
      teams.push(team);
      return team;
    };
    const cachePath = join(dir, 'push-chunks.json');
    const first = await (await fresh()).pushIndex(index, { tier: 'full', cache: FileCache.load(cachePath) });
    expect(first.stored).toBe(first.sessions);
    expect(first.sessions).toBeGreaterThan(10);
    // the same laptop to servers that hold nothing: with its cache of chunk names, and without one
    const cached = await (await fresh()).pushIndex(index, { tier: 'full', cache: FileCache.load(cachePath) });
    const uncached = await (await fresh()).pushIndex(index, { tier: 'full', cache: FileCache.load(undefined) });
    expect([cached.stored, cached.chunksUploaded]).toEqual([uncached.stored, uncached.chunksUploaded]);
    // Before: one chunk check per session more (a request per session to a server lacking them).
    expect(cached.requests).toBeLessThanOrEqual(uncached.requests + 1);
  });
});
