/**
 * The team e2e's world: a PostgreSQL of the run's, a team server on it, a viewer, and two people pushing three devices
 * at different tiers (ann's laptop at full, ann's CI runner at metadata, bob's desktop at summary), each from an index
 * of its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import type { ShareTier } from '../../team/src/contract.js';
import { openTeamDb } from '../../team/src/pg/db.js';
import { migrate } from '../../team/src/pg/migrations.js';
import { addDevice, addPerson, addViewer } from '../../team/src/pg/people.js';
import { TeamClient } from '../../team/src/push/client.js';
import { FileCache } from '../../team/src/push/file-cache.js';
import { push } from '../../team/src/push/push.js';
import { type RunningTeamServer, startTeamServer } from '../../team/src/server/start.js';
import { startPostgres } from '../../team/test/pg-harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(here, '../../core/test/fixtures');
const SAMPLES = resolve(here, '../../cli/samples/claude-home');

/** Who pushes what, at which tier. */
const pushes: readonly { person: string; device: string; tier: ShareTier; home: string }[] = [
  { person: 'ann', device: 'laptop', tier: 'full', home: SAMPLES },
  { person: 'ann', device: 'ci', tier: 'metadata', home: join(FIXTURES, 'gemini/0.61.0/.gemini') },
  { person: 'bob', device: 'desktop', tier: 'summary', home: join(FIXTURES, 'codex/0.98.0/codex-home') },
];

export interface TeamWorld {
  readonly server: RunningTeamServer;
  /** The viewer's token (lead). */
  readonly viewer: string;
  /** Each device's push token, by its name (`laptop`, `ci`, `desktop`). */
  readonly tokens: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/** The team server with every device's sessions pushed (a push that stores nothing fails the setup). */
export async function startTeamWorld(): Promise<TeamWorld> {
  const tmp = await mkdtemp(join(tmpdir(), 'agentdash-e2e-team-'));
  const pg = await startPostgres();
  const db = await openTeamDb({ url: pg.url });
  await migrate(db.sql, db.schema);
  const server = await startTeamServer({ db, host: '127.0.0.1', port: 0 });
  const viewer = (await addViewer(db.sql, 'lead')).token;
  const tokens = new Map<string, string>();
  const indexes: AgentIndex[] = [];
  const close = async () => {
    await server.close();
    for (const index of indexes) index.close();
    await db.close();
    await pg.stop();
    await rm(tmp, { recursive: true, force: true });
  };
  try {
    for (const p of pushes) {
      if (!(await db.sql`select 1 from people where name = ${p.person}`).length) await addPerson(db.sql, p.person);
      const { token } = await addDevice(db.sql, p.person, p.device);
      tokens.set(p.device, token);
      const index = openIndex({ dbPath: join(tmp, `${p.device}.sqlite`) });
      indexes.push(index);
      await index.refresh([p.home]);
      const report = await push({
        index,
        client: new TeamClient({ url: server.url, token }),
        cache: FileCache.load(undefined),
        policy: { defaultTier: p.tier, projects: [] },
        device: { agentdash: '0.1.0', hostname: p.device, platform: 'linux' },
      });
      if (report.stored === 0) throw new Error(`the push of ${p.person}/${p.device} stored nothing`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { server, viewer, tokens, close };
}
