/**
 * A transcript appended to while a push runs (an agent still writing), against real team servers on a real
 * PostgreSQL: appended between the digest and the upload, appended while the digest reads it, and appended then
 * deleted between two pushes. Each push ends with the server holding every chunk its sessions name, and a later push
 * sends the transcript as it is on disk (or, gone, as the archive holds it).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { type PushProgress, type PushReport, push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { promptsTranscript } from './wire.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };

pgSuite('a transcript appended to while it is pushed (real PostgreSQL, real HTTP)', () => {
  let dir: string;
  const teams: TeamFixture[] = [];
  const indexes: AgentIndex[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-append-'));
  });
  afterAll(async () => {
    for (const index of indexes) index.close();
    for (const team of teams) await team.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A home of one Claude Code session, its index, and the line that appends a prompt to it. */
  async function laptop(name: string) {
    const home = join(dir, name);
    const folder = join(home, 'projects', '-home-dev-app');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, '5ec7e75a-0000-4000-8000-000000000001.jsonl');
    writeFileSync(file, promptsTranscript(1, ['run the tests']));
    const index = openIndex({ dbPath: join(home, 'index.sqlite') });
    indexes.push(index);
    await index.refresh([home]);
    const appended = promptsTranscript(1, ['run the tests', 'and now the linter']).split('\n')[1] as string;
    return { home, file, index, append: () => appendFileSync(file, `${appended}\n`) };
  }
  const fresh = async () => {
    const team = await startTeam();
    teams.push(team);
    return team;
  };
  const pushTo = (
    team: TeamFixture,
    index: AgentIndex,
    cache: FileCache,
    onProgress?: (p: PushProgress) => void,
  ): Promise<PushReport> =>
    push({
      index,
      client: new TeamClient({ url: team.url, token: team.token }),
      cache,
      policy: { defaultTier: 'full', projects: [] },
      device,
      ...(onProgress ? { onProgress } : {}),
    });
  /** The one session's transcript as the team server holds it, and whether every chunk it names is stored. */
  async function held(team: TeamFixture): Promise<{ text: string; stored: boolean }> {
    const files = await team.db.sql<{ chunks: string[] }[]>`select chunks from files`;
    const names = files.flatMap((f) => f.chunks);
    const rows = await team.db.sql<{ sha256: string; bytes: Buffer }[]>`select sha256, bytes from chunks
      where sha256 = any(${names}::text[])`;
    const bytes = new Map(rows.map((r) => [r.sha256, r.bytes]));
    const text = names.map((n) => gunzipSync(bytes.get(n) ?? Buffer.alloc(0)).toString('utf8')).join('');
    return { text, stored: names.every((n) => bytes.has(n)) };
  }

  it('appended between the digest and the upload: the chunks made since are offered, and the push stores', async () => {
    const { home, file, index, append } = await laptop('between');
    const cachePath = join(home, 'push-chunks.json');
    // the chunk names cached by a push to another server: this one lacks them, so the file is read again to send
    await pushTo(await fresh(), index, FileCache.load(cachePath));
    const team = await fresh();
    let appended = false;
    const report = await pushTo(team, index, FileCache.load(cachePath), (p) => {
      if (p.stage !== 'manifest' || appended) return;
      appended = true;
      append();
    });
    // Before: the chunk made from the appended file was never offered, and the server refused the batch (400
    // TEAM_CHUNKS_MISSING: "1 transcript chunk is not stored"), failing the push.
    expect(report).toMatchObject({ sent: 1, stored: 1, chunksUploaded: 1 });
    expect(await held(team)).toEqual({ text: readFileSync(file, 'utf8'), stored: true });
  });

  it('appended while the digest reads it: the next push reads the file again', async () => {
    const { home, file, index, append } = await laptop('during');
    const cachePath = join(home, 'push-chunks.json');
    // the index reads the transcript and the agent writes to it just after (before the push takes its size)
    let appended = false;
    const writing: AgentIndex = new Proxy(index, {
      get(target, key) {
        if (key !== 'openBytes') return Reflect.get(target, key);
        return async (path: string) => {
          const source = await target.openBytes(path);
          return {
            read: source.read.bind(source),
            close: async () => {
              await source.close();
              if (!appended) append();
              appended = true;
            },
          };
        };
      },
    });
    const team = await fresh();
    expect(await pushTo(team, writing, FileCache.load(cachePath))).toMatchObject({ stored: 1 });
    // the laptop's next round: the index has read the append, the push takes its cache again
    await index.refresh([home]);
    expect(await pushTo(team, index, FileCache.load(cachePath))).toMatchObject({ stored: 1 });
    // Before: the cache kept the chunk names of the first read under the file's size after the append, and the
    // second push sent those: the server held the transcript without its last prompt until the file changed again.
    expect(await held(team)).toEqual({ text: readFileSync(file, 'utf8'), stored: true });
  });

  it('appended, then deleted by the agent before the next push: the push sends it from the archive whole', async () => {
    const { home, file, index, append } = await laptop('gone');
    const cachePath = join(home, 'push-chunks.json');
    const team = await fresh();
    expect(await pushTo(team, index, FileCache.load(cachePath))).toMatchObject({ stored: 1 });
    // the agent writes on, the index reads it (archiving the new bytes), then the agent's cleanup deletes the file
    append();
    await index.refresh([home]);
    const whole = readFileSync(file, 'utf8');
    rmSync(file);
    await index.refresh([home]);
    expect(await pushTo(team, index, FileCache.load(cachePath))).toMatchObject({ stored: 1 });
    // Before: the cache's chunk names of the first push were taken for the gone file (no size of its own to compare),
    // and the server kept the transcript without the prompt appended before it went.
    expect(await held(team)).toEqual({ text: whole, stored: true });
  });
});
