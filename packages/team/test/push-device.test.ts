/**
 * What a push tells of the laptop (real PostgreSQL, real HTTP): its AgentDash version and platform. An older laptop
 * still sends its hostname: accepted, never kept (nothing on the team server shows it); a newer one sends none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';

pgSuite('the device a push names (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;

  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-push-device-');
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  it("keeps no hostname: an older laptop's is dropped, a newer laptop sends none", async () => {
    await addPerson(team.db.sql, 'eve');
    const { token } = await addDevice(team.db.sql, 'eve', 'laptop');
    const client = new TeamClient({ url: team.url, token });
    const pushAs = (device: { agentdash: string; hostname?: string | null; platform: string }) =>
      push({
        index: laptop.index,
        client,
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'summary', projects: [] },
        device,
      });
    const held = async () =>
      await team.db.sql`select agentdash, hostname, platform from devices d join people p on p.id = d.person_id
        where p.name = 'eve'`;
    expect(await pushAs({ agentdash: '0.0.9', hostname: 'eves-macbook', platform: 'darwin' })).toMatchObject({
      stored: 1,
    });
    expect(await held()).toEqual([{ agentdash: '0.0.9', hostname: null, platform: 'darwin' }]);
    // one stored by an older server is dropped at the next push
    await team.db.sql`update devices set hostname = 'eves-macbook' where name = 'laptop'
      and person_id = (select id from people where name = 'eve')`;
    expect(await pushAs({ agentdash: '0.1.0', platform: 'linux' })).toMatchObject({ stored: 0 });
    expect(await held()).toEqual([{ agentdash: '0.1.0', hostname: null, platform: 'linux' }]);
  });
});
