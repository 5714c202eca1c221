/**
 * `team erase`: everything of a device or a person removed from PostgreSQL, checked by scanning every table's rows,
 * while another person's sessions, telemetry and the chunks they share stay.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TeamUnknownNameError } from '../src/errors.js';
import { erase } from '../src/pg/erase.js';
import { addDevice, addPerson, addViewer } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, sessionsBody, summarySession, uidOf } from './wire.js';

const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One OTLP/JSON logs request: a `tool_result` event of session `sid` carrying `marker`. */
const telemetry = (sid: string, marker: string) => ({
  resourceLogs: [
    {
      resource: { attributes: [kv('service.name', 'claude-code')] },
      scopeLogs: [
        {
          scope: { name: 'com.anthropic.claude_code.events' },
          logRecords: [
            {
              timeUnixNano: '1795168802000000000',
              body: { stringValue: 'claude_code.tool_result' },
              attributes: [
                kv('event.name', 'tool_result'),
                kv('session.id', sid),
                kv('tool_name', 'Bash'),
                kv('tool_use_id', `toolu_${marker}`),
                kv('duration_ms', '42'),
                kv('tool_input', JSON.stringify({ command: `echo ${marker}` })),
              ],
            },
          ],
        },
      ],
    },
  ],
});

pgSuite('team erase (real PostgreSQL): a device, a person, a viewer', () => {
  let team: TeamFixture;
  const tokens: Record<string, string> = {};
  const annOnly = chunksOf(['{"marker":"ANN-LAPTOP-CHUNK-5d1"}\n']);
  const annDesktop = chunksOf(['{"marker":"ANN-DESKTOP-CHUNK-5d1"}\n']);
  const shared = chunksOf(['{"marker":"SHARED-CHUNK-5d1"}\n']);

  /** Every row of every table of the schema, as text. */
  const everything = async () => {
    const tables = await team.db.sql<{ name: string }[]>`
      select table_name as name from information_schema.tables where table_schema = ${team.db.schema}`;
    const rows: string[] = [];
    for (const { name } of tables) {
      const found = await team.db.sql.unsafe(`select row_to_json(t)::text as row from "${name}" t`);
      rows.push(...found.map((r) => String(r.row)));
    }
    return rows.join('\n');
  };

  beforeAll(async () => {
    team = await startTeam();
    tokens.annLaptop = team.token;
    tokens.annDesktop = (await addDevice(team.db.sql, 'ann', 'desktop', 'full')).token;
    await addPerson(team.db.sql, 'bob');
    tokens.bob = (await addDevice(team.db.sql, 'bob', 'desktop', 'full')).token;
    await team.db.sql`update devices set otel_tier = 'full'`;
    for (const c of [...annOnly, ...annDesktop, ...shared]) {
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    }
    const pushes: [string, unknown[]][] = [
      [tokens.annLaptop, [fullSession(1, [...annOnly, ...shared]), metadataSession(2, 'ANN-TITLE-5d1')]],
      [tokens.annDesktop, [fullSession(3, annDesktop)]],
      [tokens.bob, [fullSession(4, shared), summarySession(5)]],
    ];
    for (const [token, sessions] of pushes) {
      const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody(sessions as never), { token });
      expect(res.status).toBe(200);
    }
    for (const [token, marker] of [
      [tokens.annLaptop, 'ANN-LAPTOP-OTEL-5d1'],
      [tokens.annDesktop, 'ANN-DESKTOP-OTEL-5d1'],
      [tokens.bob, 'BOB-OTEL-5d1'],
    ] as const) {
      const res = await fetch(`${team.url}/v1/logs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(telemetry(`sid-${marker}`, marker)),
      });
      expect(res.status).toBe(200);
    }
    const all = await everything();
    for (const m of ['ANN-LAPTOP-OTEL', 'ANN-DESKTOP-OTEL', 'BOB-OTEL', 'ANN-TITLE']) expect(all).toContain(m);
  });
  afterAll(async () => {
    await team?.close();
  });

  it("erases a device: the sessions it pushed, its telemetry and its own chunks; not its person's other data", async () => {
    const erased = await erase(team.db.sql, 'ann/desktop');
    expect(erased).toEqual({
      kind: 'device',
      name: 'ann/desktop',
      sessions: 1,
      telemetry: 1,
      chunks: 1,
      tokens: 1,
      uids: [uidOf(3)],
    });
    const all = await everything();
    expect(
      [uidOf(3), annDesktop[0]?.sha256, 'ANN-DESKTOP-OTEL', '"desktop"'].filter((t) => all.includes(String(t))),
    ).toEqual(['"desktop"']); // bob's desktop
    for (const kept of [uidOf(1), uidOf(2), 'ANN-LAPTOP-OTEL', annOnly[0]?.sha256]) expect(all).toContain(kept);
    const res = await team.request('GET', '/api/sessions', undefined, { token: tokens.annDesktop });
    expect(res.status).toBe(401);
  });

  it('erases a person: name, salt, devices, sessions, telemetry and the chunks no one else refers to', async () => {
    const [{ salt } = { salt: '' }] = await team.db.sql<{ salt: string }[]>`select salt from people where name = 'ann'`;
    const erased = await erase(team.db.sql, 'ann');
    expect({ ...erased, uids: [...erased.uids].sort() }).toEqual({
      kind: 'person',
      name: 'ann',
      sessions: 2,
      telemetry: 1,
      chunks: 1,
      tokens: 1,
      uids: [uidOf(1), uidOf(2)].sort(),
    });
    const all = await everything();
    const gone = ['"ann"', salt, uidOf(1), uidOf(2), 'ANN-TITLE', 'ANN-LAPTOP-OTEL', annOnly[0]?.sha256];
    expect(gone.filter((t) => all.includes(String(t)))).toEqual([]);
    // bob's sessions, telemetry and the chunk he shared with ann stay
    for (const kept of [uidOf(4), uidOf(5), 'BOB-OTEL', shared[0]?.sha256, '"bob"']) expect(all).toContain(kept);
    const [ids] = await team.db.sql<{ n: number }[]>`select count(*)::int as n from sessions`;
    expect(ids?.n).toBe(2);
    expect((await team.request('GET', '/api/sessions', undefined, { token: tokens.annLaptop })).status).toBe(401);
    expect((await team.request('GET', '/api/sessions', undefined, { token: tokens.bob })).status).toBe(200);
  });

  it('erases a viewer; an unknown name is refused', async () => {
    await addViewer(team.db.sql, 'lead');
    expect((await erase(team.db.sql, 'lead')).kind).toBe('viewer');
    expect(await everything()).not.toContain('"lead"');
    await expect(erase(team.db.sql, 'ghost')).rejects.toBeInstanceOf(TeamUnknownNameError);
    await expect(erase(team.db.sql, 'bob/ghost')).rejects.toBeInstanceOf(TeamUnknownNameError);
  });
});
