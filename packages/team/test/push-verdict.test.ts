/**
 * What a full-tier session's transcript leaves behind on the team server when the session is not taken at the full
 * tier (real PostgreSQL, real HTTP): lowered to metadata on the laptop (too large), or refused by the server (its uid
 * another person's). Before, its chunks went while it was digested and stayed, referred to by nothing, until the
 * sweep a day later, though the push said "sent at the metadata tier" or "not pushed".
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { promptsTranscript } from './wire.js';

const device = { agentdash: '0.1.0', platform: 'linux' };

pgSuite("a session's transcript, when the session is not taken at the full tier (real PostgreSQL)", () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-verdict-'));
    const folder = join(dir, 'home', 'projects', '-home-dev-verdict');
    mkdirSync(folder, { recursive: true });
    // a chunk's worth of prose (a chunk of its own, cut before the next line), then 6 MB of random base64 in one
    // prompt: its gzip is past the 4 MiB a chunk may be, so the session goes at metadata
    const prose = 'the build went green after the retry, and the release notes were written. '.repeat(15_000);
    const line = randomBytes(4_500_000).toString('base64');
    writeFileSync(join(folder, '5ec7e75a-0000-4000-8000-000000000081.jsonl'), promptsTranscript(81, [prose, line]));
    writeFileSync(join(folder, '5ec7e75a-0000-4000-8000-000000000082.jsonl'), promptsTranscript(82, ['small one']));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(dir, 'home')]);
  });
  afterAll(async () => {
    index?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await team?.close();
  });

  const pushAs = async (person: string, tier: ShareTier) => {
    const { token } = await addDevice(team.db.sql, person, `laptop-${tier}`);
    return await push({
      index,
      client: new TeamClient({ url: team.url, token }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: tier, projects: [] },
      device,
    });
  };
  /** The chunks on the server, and those of them no stored session refers to. */
  const chunks = async () => {
    const [row] = await team.db.sql<{ all: number; orphans: number }[]>`
      select count(*)::int as all,
        count(*) filter (where not exists (select 1 from file_chunks f where f.sha256 = c.sha256))::int as orphans
      from chunks c`;
    return row;
  };

  it('lowered to metadata on the laptop: none of its chunks is sent', async () => {
    await addPerson(team.db.sql, 'low');
    const report = await pushAs('low', 'full');
    expect(report).toMatchObject({ stored: 2, skipped: [], tiers: { summary: 0, metadata: 1, full: 1 } });
    expect(report.lowered.map((l) => l.session)).toEqual(['5ec7e75a-0000-4000-8000-000000000081']);
    // the small session's one chunk; before, the big one's first chunk too (its prose), referred to by nothing
    expect(await chunks()).toEqual({ all: 1, orphans: 0 });
    expect(report.chunksUploaded).toBe(1);
    // the next test starts from a server without them
    await team.db.sql`delete from people where name = 'low'`;
    await team.db.sql`delete from chunks`;
  });

  it("refused by the server (its uid another person's): its chunks leave the server with the answer", async () => {
    await addPerson(team.db.sql, 'owner');
    await addPerson(team.db.sql, 'copier');
    // the same uids as the owner's: the copier pushes with the owner's salt (as one who copied uids would)
    await team.db.sql`update people set salt = (select salt from people where name = 'owner') where name = 'copier'`;
    expect(await pushAs('owner', 'metadata')).toMatchObject({ stored: 2 });
    const before = await chunks();
    const report = await pushAs('copier', 'full');
    expect(report.stored).toBe(0);
    expect(report.skipped.map((s) => s.session).sort()).toEqual([
      '5ec7e75a-0000-4000-8000-000000000081',
      '5ec7e75a-0000-4000-8000-000000000082',
    ]);
    // the small session's chunk was sent (the manifest wanted it) and is gone with the refusal; before, it stayed
    expect(report.chunksUploaded).toBe(1);
    expect(await chunks()).toEqual(before);
    expect((await chunks())?.orphans).toBe(0);
  });
});
