/**
 * Two people pushing the same transcripts at once (a shared CI artifacts folder, a copied home), one of them lowering
 * their tier meanwhile: the chunks the lowering drops from the team server are the ones the other push found there
 * and was about to refer to. That push sends them again and stores its sessions, instead of failing whole.
 */
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

pgSuite('a push whose chunks another push dropped meanwhile (real PostgreSQL, real HTTP)', () => {
  let dir: string;
  let team: TeamFixture;
  const indexes: AgentIndex[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-gone-'));
    team = await startTeam();
  });
  afterAll(async () => {
    for (const index of indexes) index.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("stores its sessions though another person's lowering push dropped their chunks meanwhile", async () => {
    // one home (the CI job's transcripts both pushed), indexed by each person's laptop
    const home = join(dir, 'home');
    mkdirSync(join(home, 'projects', '-srv-ci'), { recursive: true });
    writeFileSync(
      join(home, 'projects', '-srv-ci', '5ec7e75a-0000-4000-8000-000000000001.jsonl'),
      promptsTranscript(1, ['build it']),
    );
    const laptop = async (name: string) => {
      await addPerson(team.db.sql, name);
      const { token } = await addDevice(team.db.sql, name, 'laptop');
      const index = openIndex({ dbPath: join(dir, `${name}.sqlite`) });
      indexes.push(index);
      await index.refresh([home]);
      return (tier: ShareTier, fetcher?: typeof fetch) =>
        push({
          index,
          client: new TeamClient({ url: team.url, token, retryMs: 0, ...(fetcher ? { fetch: fetcher } : {}) }),
          cache: FileCache.load(undefined),
          policy: { defaultTier: tier, projects: [] },
          device: { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' },
        });
    };
    const bob = await laptop('bob');
    const cat = await laptop('cat');
    expect(await bob('full')).toMatchObject({ stored: 1, chunksUploaded: 1 });
    // cat's push finds the chunk stored (bob's) and does not send it; just before its sessions go, bob lowers his
    // session to the summary tier, and the chunk no session refers to any more leaves the server
    let lowered = false;
    const report = await cat('full', async (input, init) => {
      if (String(input).endsWith('/push/sessions') && !lowered) {
        lowered = true;
        expect(await bob('summary')).toMatchObject({ stored: 1 });
        expect(await team.db.sql`select sha256 from chunks`).toEqual([]);
      }
      return await fetch(input, init);
    });
    // Before: the team server refused the batch (400 TEAM_CHUNKS_MISSING) and cat's push failed whole.
    expect(report).toMatchObject({ sent: 1, stored: 1, chunksUploaded: 1 });
    const rows = await team.db.sql<{ name: string; tier: string }[]>`select p.name, s.tier from sessions s
      join people p on p.id = s.person_id order by p.name`;
    expect(rows).toEqual([
      { name: 'bob', tier: 'summary' },
      { name: 'cat', tier: 'full' },
    ]);
    const [held] = await team.db.sql<{ missing: number }[]>`select count(*)::int as missing from file_chunks f
      where not exists (select 1 from chunks c where c.sha256 = f.sha256)`;
    expect(held?.missing).toBe(0);
  });
});
