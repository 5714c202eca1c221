import { join } from 'node:path';
import type { AgentIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { ForgottenSessions } from '../src/push/forgotten.js';
import { forget, push, unforget } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };

pgSuite('agentdash push --forget (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let dir: string;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-push-forget-');
    ({ dir, index } = laptop);
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  it('a forgotten session is not pushed again, by this push or a later process, until unforgotten', async () => {
    const d = await freshDevice('forgetful');
    const client = new TeamClient({ url: team.url, token: d.token });
    const listPath = join(dir, 'push-forgotten.json');
    const pushWith = (forgotten: ForgottenSessions) =>
      push({
        index,
        client,
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'metadata', projects: [] },
        device,
        forgotten,
      });
    const held = async () =>
      (
        await team.db.sql<{ n: number }[]>`
        select count(*)::int as n from sessions s join people p on p.id = s.person_id where p.name = 'forgetful'`
      )[0]?.n;
    // a `push --watch` running all along, with the list it loaded when it started
    const watching = ForgottenSessions.load(listPath);
    expect(await pushWith(watching)).toMatchObject({ stored: 1, forgotten: 0 });
    const [session] = index.listSessions({});
    // `push --forget` in another process
    expect(await forget(client, [session!], ForgottenSessions.load(listPath))).toBe(1);
    expect(await held()).toBe(0);
    // the watch's next round leaves it out, and so does a later process
    expect(await pushWith(watching)).toMatchObject({ sessions: 0, forgotten: 1, sent: 0 });
    expect(await pushWith(ForgottenSessions.load(listPath))).toMatchObject({ sessions: 0, forgotten: 1, sent: 0 });
    expect(await held()).toBe(0);
    expect(await unforget(client, [session!], ForgottenSessions.load(listPath))).toBe(1);
    expect(await pushWith(watching)).toMatchObject({ stored: 1, forgotten: 0 });
    expect(await held()).toBe(1);
  });

  it('a forget made while a push is sending is not undone by that push', async () => {
    const d = await freshDevice('forgetful-midway');
    const listPath = join(dir, 'midway-forgotten.json');
    const [session] = index.listSessions({});
    const forgetter = new TeamClient({ url: team.url, token: d.token });
    // the session's batch is on its way when another process forgets the session
    const racing: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith('/push/sessions')) await forget(forgetter, [session!], ForgottenSessions.load(listPath));
      return await fetch(input, init);
    };
    const report = await push({
      index,
      client: new TeamClient({ url: team.url, token: d.token, fetch: racing, retryMs: 0 }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: 'metadata', projects: [] },
      device,
      forgotten: ForgottenSessions.load(listPath),
    });
    // refused by the server, which recorded the forget first (before: stored, then forgotten again by the push)
    expect(report).toMatchObject({
      stored: 0,
      skipped: [
        {
          session: session!.ref,
          reason: expect.stringContaining('forgotten on this team server (push --forget); push --unforget'),
        },
      ],
    });
    const held = await team.db.sql<{ n: number }[]>`
      select count(*)::int as n from sessions s join people p on p.id = s.person_id where p.name = 'forgetful-midway'`;
    expect(held[0]?.n).toBe(0);
  });

  it("a session forgotten from one laptop is refused from the person's other, until unforgotten there", async () => {
    const d = await freshDevice('two-laptops');
    const second = await addDevice(team.db.sql, 'two-laptops', 'desktop');
    const [session] = index.listSessions({});
    const pushFrom = (token: string, list: string) =>
      push({
        index,
        client: new TeamClient({ url: team.url, token }),
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'metadata', projects: [] },
        device,
        forgotten: ForgottenSessions.load(join(dir, list)),
      });
    expect(await pushFrom(d.token, 'laptop-forgotten.json')).toMatchObject({ stored: 1 });
    const laptop = new TeamClient({ url: team.url, token: d.token });
    expect(await forget(laptop, [session!], ForgottenSessions.load(join(dir, 'laptop-forgotten.json')))).toBe(1);
    // the desktop's list does not have it: it sends it, and the server refuses it (before: stored again)
    const desktop = await pushFrom(second.token, 'desktop-forgotten.json');
    expect(desktop).toMatchObject({ sent: 1, stored: 0, skipped: [{ session: session!.ref }] });
    // unforgotten from the desktop, whose list never had it: the server's record is cleared
    const desktopClient = new TeamClient({ url: team.url, token: second.token });
    const desktopList = ForgottenSessions.load(join(dir, 'desktop-forgotten.json'));
    expect(await unforget(desktopClient, [session!], desktopList)).toBe(1);
    expect(await pushFrom(second.token, 'desktop-forgotten.json')).toMatchObject({ stored: 1, skipped: [] });
  });

  async function freshDevice(name: string): Promise<{ person: string; token: string }> {
    await addPerson(team.db.sql, name);
    const { token } = await addDevice(team.db.sql, name, 'laptop');
    return { person: name, token };
  }
});
