/**
 * Telemetry sent straight to the team server by a device the admin added at `full` (real PostgreSQL, real HTTP):
 * held at no more than the tier its session is pushed at, whether sent before or after the push, cut when the
 * session is pushed again lower, deleted when it is forgotten; a session never pushed keeps the device's tier.
 */
import { join } from 'node:path';
import type { AgentIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { cutStoredTelemetry } from '../src/pg/telemetry-tier.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { ForgottenSessions } from '../src/push/forgotten.js';
import { forget, push } from '../src/push/push.js';
import { kv } from './otlp-planted.js';
import { pgSuite } from './pg-harness.js';
import { type PlantedIndex, plantedIndex, SESSION_ID } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };
const OTHER_ID = '5ec7e75a-0000-4000-8000-00000000beef';
/** What only the full tier holds of an export (`MARKER-…-<round>`), and what the metadata tier adds to summary. */
const FULL_ONLY = ['PROMPT', 'PARAMS', 'PATH', 'STATUS', 'CWD'] as const;

/** An export of one session's prompt, tool result, tool span and cost metric, each holding markers of `round`. */
function exportOf(sessionId: string, round: string) {
  const m = (kind: string) => `MARKER-${kind}-${round}`;
  const nano = `${BigInt(Date.UTC(2026, 10, 20, 10, 0, Number.parseInt(round, 36) % 60)) * 1_000_000n}`;
  const resource = { attributes: [kv('service.name', 'claude-code')] };
  return {
    '/v1/logs': {
      resourceLogs: [
        {
          resource,
          scopeLogs: [
            {
              logRecords: [
                {
                  timeUnixNano: nano,
                  attributes: [
                    kv('event.name', 'user_prompt'),
                    kv('session.id', sessionId),
                    kv('prompt.id', `p-${round}`),
                    kv('prompt', m('PROMPT')),
                  ],
                },
                {
                  timeUnixNano: nano,
                  attributes: [
                    kv('event.name', 'tool_result'),
                    kv('session.id', sessionId),
                    kv('tool_name', 'Bash'),
                    kv('tool_use_id', `toolu_${round}`),
                    kv('tool_parameters', JSON.stringify({ full_command: `echo ${m('PARAMS')}\nsecond line` })),
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    '/v1/traces': {
      resourceSpans: [
        {
          resource,
          scopeSpans: [
            {
              spans: [
                {
                  traceId: round.padStart(32, 'a'),
                  spanId: round.padStart(16, 'b'),
                  name: 'claude_code.tool',
                  startTimeUnixNano: nano,
                  endTimeUnixNano: nano,
                  attributes: [kv('session.id', sessionId), kv('file_path', `/x/${m('PATH')}/b.ts`)],
                  status: { code: 2, message: m('STATUS') },
                },
              ],
            },
          ],
        },
      ],
    },
    '/v1/metrics': {
      resourceMetrics: [
        {
          resource,
          scopeMetrics: [
            {
              metrics: [
                {
                  name: 'claude_code.cost.usage',
                  sum: {
                    aggregationTemporality: 1,
                    dataPoints: [
                      {
                        timeUnixNano: nano,
                        asDouble: 0.5,
                        attributes: [kv('session.id', sessionId), kv('cwd', `/x/${m('CWD')}`)],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  };
}

pgSuite('telemetry of a pushed session at no more than its tier (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-otlp-pushed-tier-');
    index = laptop.index;
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  /** A person whose one device the admin added at `full`: its token pushes and exports. */
  async function fullDevice(person: string) {
    await addPerson(team.db.sql, person);
    const { token } = await addDevice(team.db.sql, person, 'laptop', 'full');
    const client = new TeamClient({ url: team.url, token });
    const send = async (sessionId: string, round: string) => {
      for (const [path, body] of Object.entries(exportOf(sessionId, round))) {
        const response = await fetch(`${team.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(200);
      }
    };
    const pushAt = (tier: ShareTier) =>
      push({ index, client, cache: FileCache.load(undefined), policy: { defaultTier: tier, projects: [] }, device });
    /** The person's stored telemetry of `sessionId`: its records as text, and the tiers they are held at. */
    const held = async (sessionId: string) => {
      const rows = await team.db.sql<{ tier: string; record: string }[]>`
        select tier, record::text as record from otel_events where session_id = ${sessionId}
          and person_id = (select id from people where name = ${person})
        union all select tier, record::text from otel_spans where session_id = ${sessionId}
          and person_id = (select id from people where name = ${person})
        union all select tier, record::text from otel_metrics where session_id = ${sessionId}
          and person_id = (select id from people where name = ${person})`;
      return { text: rows.map((r) => r.record).join('\n'), tiers: [...new Set(rows.map((r) => r.tier))].sort() };
    };
    return { client, send, pushAt, held };
  }
  const markers = (text: string, round: string) => FULL_ONLY.filter((k) => text.includes(`MARKER-${k}-${round}`));

  it('a session pushed at summary keeps no prompt or tool detail in telemetry sent before and after its push', async () => {
    const dee = await fullDevice('dee');
    await dee.send(SESSION_ID, 'r1');
    // before any push the session is not known: the device's tier
    expect(markers((await dee.held(SESSION_ID)).text, 'r1')).toEqual([...FULL_ONLY]);
    expect(await dee.pushAt('summary')).toMatchObject({ stored: 1 });
    const before = await dee.held(SESSION_ID);
    expect([markers(before.text, 'r1'), before.tiers]).toEqual([[], ['summary']]);
    await dee.send(SESSION_ID, 'r2');
    const after = await dee.held(SESSION_ID);
    expect([markers(after.text, 'r2'), after.tiers]).toEqual([[], ['summary']]);
    // every record is still there, cut
    const [count] = await team.db.sql<{ n: number }[]>`
      select count(*)::int as n from otel_events where session_id = ${SESSION_ID} and name = 'user_prompt'`;
    expect(count?.n).toBe(2);
    // a session the laptop never pushed stays at the device's tier
    await dee.send(OTHER_ID, 'r3');
    expect(markers((await dee.held(OTHER_ID)).text, 'r3')).toEqual([...FULL_ONLY]);
  });

  it('a session pushed again lower cuts the telemetry held at the higher tier', async () => {
    const bob = await fullDevice('bob');
    expect(await bob.pushAt('full')).toMatchObject({ stored: 1 });
    await bob.send(SESSION_ID, 'r4');
    expect(markers((await bob.held(SESSION_ID)).text, 'r4')).toEqual([...FULL_ONLY]);
    expect(await bob.pushAt('metadata')).toMatchObject({ stored: 1 });
    const cut = await bob.held(SESSION_ID);
    // the metadata tier's: the call's one line (the command's first line) and the span's status message
    expect([markers(cut.text, 'r4'), cut.tiers]).toEqual([['PARAMS', 'STATUS'], ['metadata']]);
    expect(cut.text).toContain('"Bash echo MARKER-PARAMS-r4"');
    expect(cut.text).not.toContain('second line');
    // sent again by the exporter (a retry), each record is still stored once: the prompt and the tool result
    await bob.send(SESSION_ID, 'r4');
    const [count] = await team.db.sql<{ n: number }[]>`
      select count(*)::int as n from otel_events e join people p on p.id = e.person_id
      where p.name = 'bob' and e.session_id = ${SESSION_ID}`;
    expect(count?.n).toBe(2);
  });

  it('telemetry an older server kept above its session tier is cut when the server starts', async () => {
    const fay = await fullDevice('fay');
    expect(await fay.pushAt('full')).toMatchObject({ stored: 1 });
    await fay.send(SESSION_ID, 'r7');
    await fay.send(OTHER_ID, 'r8');
    // the session lowered by a server that left its telemetry as it was
    await team.db.sql`update sessions set tier = 'summary'
      where session_id = ${SESSION_ID} and person_id = (select id from people where name = 'fay')`;
    expect(await cutStoredTelemetry(team.db.sql)).toBe(1);
    const cut = await fay.held(SESSION_ID);
    expect([markers(cut.text, 'r7'), cut.tiers]).toEqual([[], ['summary']]);
    expect(markers((await fay.held(OTHER_ID)).text, 'r8')).toEqual([...FULL_ONLY]);
    expect(await cutStoredTelemetry(team.db.sql)).toBe(0);
  });

  it('push --forget deletes the session telemetry, and no other session', async () => {
    const cat = await fullDevice('cat');
    await cat.send(SESSION_ID, 'r5');
    await cat.send(OTHER_ID, 'r6');
    expect(await cat.pushAt('full')).toMatchObject({ stored: 1 });
    const [session] = index.listSessions({});
    const list = ForgottenSessions.load(join(laptop.dir, 'cat-forgotten.json'));
    expect(await forget(cat.client, [session!], list)).toBe(1);
    expect(await cat.held(SESSION_ID)).toEqual({ text: '', tiers: [] });
    expect(markers((await cat.held(OTHER_ID)).text, 'r6')).toEqual([...FULL_ONLY]);
  });
});
