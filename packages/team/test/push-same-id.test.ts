/**
 * Two sessions of one id in two project folders (a copied project, a resumed session's folder kept twice: wild
 * Gemini homes hold such pairs) pushed from one laptop (real PostgreSQL, real HTTP): the push sends both, each with
 * its own calls. A push once stopped at the first of them with "matches 2 sessions" (exit 5), sending nothing more.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const ID = '7d0c4f61-3b1e-4c55-9a0e-2f4f2b5e8a11';
const projects = fileURLToPath(new URL('../../cli/samples/claude-home/projects/', import.meta.url));
/** Two sample sessions of different work, each written as session `ID` in a project folder of its own. */
const SOURCES = [
  ['-home-user-proj-shell', '5546c9dc-f77a-4128-bec8-c0c6a466b9a7'],
  ['-home-user-proj-search', '81482fa3-a776-46ab-ab36-0323ee5dceda'],
] as const;

pgSuite('two sessions of one id in two project folders (real PostgreSQL)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-same-id-'));
    for (const [folder, id] of SOURCES) {
      const text = readFileSync(join(projects, folder, `${id}.jsonl`), 'utf8').replaceAll(id, ID);
      mkdirSync(join(dir, 'home', 'projects', folder), { recursive: true });
      writeFileSync(join(dir, 'home', 'projects', folder, `${ID}.jsonl`), text);
    }
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(dir, 'home')]);
  });
  afterAll(async () => {
    index?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await team?.close();
  });

  for (const tier of ['summary', 'metadata', 'full'] as const satisfies readonly ShareTier[]) {
    it(`at ${tier}, both go, each with its own calls`, async () => {
      const local = index.listSessions({}).filter((s) => s.id === ID);
      expect(local.length).toBe(2);
      const localCalls = local.map((s) => s.toolCalls).sort((a, b) => a - b);
      expect(localCalls[0]).toBeGreaterThan(0);
      expect(localCalls[0]).not.toBe(localCalls[1]);
      await addPerson(team.db.sql, tier);
      const { token } = await addDevice(team.db.sql, tier, 'laptop');
      expect(await team.pushIndex(index, { token, tier })).toMatchObject({ stored: 2, skipped: [] });
      const held = await team.db.sql<{ tool_calls: number; calls: number }[]>`
        select s.tool_calls, (select count(*)::int from calls c where c.person_id = s.person_id and c.uid = s.uid) as calls
        from sessions s join people p on p.id = s.person_id where p.name = ${tier}`;
      expect(held.map((r) => r.tool_calls).sort((a, b) => a - b)).toEqual(localCalls);
      expect(held.map((r) => r.calls).sort((a, b) => a - b)).toEqual(localCalls);
    });
  }
});
