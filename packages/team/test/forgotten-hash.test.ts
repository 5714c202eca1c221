/**
 * The team server keeps the session id of a forgotten session as its keyed hash (HMAC-SHA256 under a key of its
 * own, `server_settings`), never in clear; a server's record from before the hash is converted by its migration, and
 * telemetry of the session is still dropped, until the owner's unforget clears the record.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTeamDb } from '../src/pg/db.js';
import { forgottenSessionIds } from '../src/pg/forgotten.js';
import { sessionHasher } from '../src/pg/forgotten-key.js';
import { migrate, migrations } from '../src/pg/migrations.js';
import { personOf } from './forgotten-harness.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { uidOf } from './wire.js';

pgSuite('the session ids of forgotten sessions, kept as keyed hashes (real PostgreSQL)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  /** The server's key, as the migration made it. */
  const keyOf = async (schema: string) => {
    const [row] = await team.db.sql.unsafe<{ value: string }[]>(
      `select value from "${schema}".server_settings where name = 'forgotten-session-key'`,
    );
    return Buffer.from(row?.value ?? '', 'hex');
  };
  const hmac = (key: Buffer, id: string) => createHmac('sha256', key).update(id).digest('hex');

  it('a forget records the session id as its HMAC, and the telemetry of the id is still dropped', async () => {
    const uma = await personOf(team, 'uma');
    expect((await uma.push(94)).json.data).toMatchObject({ stored: 1 });
    expect((await uma.forget([uidOf(94)])).json.data).toEqual({ forgotten: 1 });
    // before, the record kept `session-94` itself
    const rows = await team.db.sql<
      Record<string, unknown>[]
    >`select * from forgotten_sessions where uid = ${uidOf(94)}`;
    expect(JSON.stringify(rows)).not.toContain('session-94');
    const key = await keyOf(team.db.schema);
    expect(key.length).toBe(32);
    expect(rows.map((r) => r.session_hash)).toEqual([hmac(key, 'session-94')]);
    await uma.send(['session-94'], 'r1');
    expect(await uma.held('session-94')).toBe(0);
    expect((await uma.unforget([uidOf(94)])).json.data).toEqual({ unforgotten: [uidOf(94)] });
    await uma.send(['session-94'], 'r2');
    expect(await uma.held('session-94')).toBe(4);
  });

  it("version 23 hashes a record's session id kept in clear before it, under a key of its own", async () => {
    const schema = 'team_hash';
    await migrate(
      team.db.sql,
      schema,
      migrations.filter((m) => m.version <= 22),
    );
    const [uid, never] = [uidOf('hash-1'), uidOf('hash-2')];
    await team.db.sql.unsafe(`
      insert into "${schema}".people (name, salt) values ('vic', repeat('ab', 32));
      insert into "${schema}".forgotten_sessions (uid, person_id, session_id)
        values ('${uid}', 1, 'session-secret'), ('${never}', 1, null)`);
    const files = async () =>
      await team.db.sql.unsafe<{ t: string; i: string }[]>(
        `select pg_relation_filenode('"${schema}".forgotten_sessions')::text as t,
          pg_relation_filenode('"${schema}".forgotten_sessions_pkey')::text as i`,
      );
    const before = await files();
    expect(
      await migrate(
        team.db.sql,
        schema,
        migrations.filter((m) => m.version <= 23),
      ),
    ).toEqual([23]);
    // the table and its indexes rewritten (VACUUM FULL): the ids in clear left in dead tuples and index pages go.
    // Before, the same files (an update and a rename rewrite nothing)
    const after = await files();
    expect(after[0]?.t).not.toBe(before[0]?.t);
    expect(after[0]?.i).not.toBe(before[0]?.i);
    const rows = await team.db.sql.unsafe<{ uid: string; session_hash: string | null }[]>(
      `select uid, session_hash from "${schema}".forgotten_sessions order by uid`,
    );
    const key = await keyOf(schema);
    const expected = [
      { uid, session_hash: hmac(key, 'session-secret') },
      { uid: never, session_hash: null },
    ].sort((a, b) => a.uid.localeCompare(b.uid));
    expect(rows).toEqual(expected);
    // a lookup hashes the id it checks, with the key the schema holds
    const db = await openTeamDb({ url: team.pg.url, schema });
    try {
      const hash = await sessionHasher(db.sql);
      const dropped = await db.sql.begin((tx) => forgottenSessionIds(tx, 1, ['session-secret', 'session-other'], hash));
      expect([...dropped]).toEqual(['session-secret']);
    } finally {
      await db.close();
    }
    // and each database has a key of its own
    expect(key.equals(await keyOf(team.db.schema))).toBe(false);
  });

  it('a malformed key fails loudly, not a shorter key', async () => {
    const schema = 'team_badkey';
    await migrate(team.db.sql, schema);
    // an odd digit: Buffer.from(hex) would stop before it, a key of 31 bytes
    await team.db.sql.unsafe(
      `update "${schema}".server_settings set value = repeat('ab', 31) || 'a' || 'g' where name = 'forgotten-session-key'`,
    );
    const db = await openTeamDb({ url: team.pg.url, schema });
    try {
      await expect(sessionHasher(db.sql)).rejects.toThrow(/forgotten-session-key/);
    } finally {
      await db.close();
    }
  });
});
