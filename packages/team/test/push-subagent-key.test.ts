/**
 * A subagent's key as a push sends it (real PostgreSQL, real HTTP): the index keys a subagent file's thread by the
 * file's path when it knows no agent id for the file (index's session-header.ts), and that path is this machine's.
 * No adapter writes such a row today, so the index here answers as one would: each subagent keyed by its file's path.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const device = { agentdash: '0.1.0', platform: 'linux' };
const ID = '410c10d6-fdc3-4c91-bc4f-74b883942e01';

pgSuite("a subagent keyed by its file's path (real PostgreSQL)", () => {
  let team: TeamFixture;
  let dir: string;
  let own: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-subkey-'));
    const sample = fileURLToPath(
      new URL('../../cli/samples/claude-home/projects/-home-user-proj-subagents/', import.meta.url),
    );
    const folder = join(dir, 'home', 'projects', '-home-user-proj-subagents');
    mkdirSync(join(folder, ID, 'subagents'), { recursive: true });
    writeFileSync(join(folder, `${ID}.jsonl`), readFileSync(join(sample, `${ID}.jsonl`)));
    for (const f of readdirSync(join(sample, ID, 'subagents'))) {
      writeFileSync(join(folder, ID, 'subagents', f), readFileSync(join(sample, ID, 'subagents', f)));
    }
    own = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await own.refresh([join(dir, 'home')]);
  });
  afterAll(async () => {
    own?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await team?.close();
  });

  /** The index, its subagents keyed as session-header.ts keys a file without an agent id: by the file's path. */
  const pathKeyed = (): AgentIndex => ({
    ...own,
    sessionHeader: (ref) => {
      const header = own.sessionHeader(ref);
      const files = own.sessionFiles(ref)?.subagents ?? [];
      if (!header) return header;
      const pathOf = (agentId: string | null) => files.find((f) => f.agentId === agentId)?.path;
      return { ...header, subagents: header.subagents.map((sub) => ({ ...sub, key: pathOf(sub.agentId) ?? sub.key })) };
    },
  });

  for (const tier of ['metadata', 'full'] as const satisfies readonly ShareTier[]) {
    it(`at ${tier}, goes as its file's name in the session's folder, never the laptop's path`, async () => {
      const index = pathKeyed();
      const local = index.sessionHeader(ID)?.subagents ?? [];
      expect(local.length).toBeGreaterThanOrEqual(4);
      const paths = local.map((sub) => sub.key).filter((key) => key.startsWith(dir));
      expect(paths.length).toBe(4);
      await addPerson(team.db.sql, tier);
      const { token } = await addDevice(team.db.sql, tier, 'laptop');
      const report = await push({
        index,
        client: new TeamClient({ url: team.url, token }),
        cache: FileCache.load(undefined),
        policy: { defaultTier: tier, projects: [] },
        device,
      });
      expect(report).toMatchObject({ stored: 1, skipped: [] });
      const [row] = await team.db.sql<{ subagents: { key: string; agentId: string | null }[] }[]>`
        select s.body->'header'->'subagents' as subagents from sessions s join people p on p.id = s.person_id
        where p.name = ${tier}`;
      // Before: each such key was the laptop's absolute path (its home folder, its user name).
      expect(JSON.stringify(row?.subagents)).not.toContain(dir);
      const keys = row?.subagents.map((sub) => sub.key) ?? [];
      // as many as the laptop's, each a file of the session (as the pushed files are named), in the same order
      expect(keys.length).toBe(local.length);
      const named = local.map((sub) =>
        sub.key.startsWith(dir) ? `${ID}/subagents/agent-${sub.agentId}.jsonl` : sub.key,
      );
      expect(keys).toEqual(named);
      if (tier === 'full') {
        const files = await team.db.sql<{ name: string }[]>`
          select f.name from files f join people p on p.id = f.person_id where p.name = 'full' and f.role = 'subagent'`;
        for (const name of named.filter((key) => key.endsWith('.jsonl'))) {
          expect(files.map((f) => f.name)).toContain(name);
        }
      }
    });
  }

  it("at full, the team's timeline of such a subagent is found by the key sent", async () => {
    // the files as such an index lists them too: no agent id, so the team server keys their threads by path as well
    const base = pathKeyed();
    const index: AgentIndex = {
      ...base,
      listSessions: (filter) =>
        own.listSessions(filter).map((s) => ({ ...s, files: s.files.map(({ agentId: _id, ...f }) => f) })),
    };
    await addPerson(team.db.sql, 'joined');
    const { token } = await addDevice(team.db.sql, 'joined', 'laptop');
    const report = await push({
      index,
      client: new TeamClient({ url: team.url, token }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: 'full', projects: [] },
      device,
    });
    expect(report).toMatchObject({ stored: 1, skipped: [] });
    const [row] = await team.db.sql<{ uid: string; subagents: { key: string }[] }[]>`
      select s.uid, s.body->'header'->'subagents' as subagents from sessions s join people p on p.id = s.person_id
      where p.name = 'joined'`;
    const keys = (row?.subagents ?? []).map((sub) => sub.key).filter((key) => key.endsWith('.jsonl'));
    expect(keys.length).toBe(4);
    for (const key of keys) {
      const page = await team.request('GET', `/api/sessions/${row?.uid}/events?agent=${encodeURIComponent(key)}`);
      // before: 404 "subagent not found" (the thread is keyed by the path its file is read at on the server)
      expect([key, page.status]).toEqual([key, 200]);
      expect((page.json as unknown as { events: unknown[] }).events.length).toBeGreaterThan(0);
    }
  });
});
