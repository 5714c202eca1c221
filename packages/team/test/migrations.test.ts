import { createHash } from 'node:crypto';
import { PROMPT_BOUNDARIES } from '@agentdash/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTeamDb, type TeamDb } from '../src/pg/db.js';
import { migrate, migrations } from '../src/pg/migrations.js';
import { schemaVersion } from '../src/pg/open.js';
import { usageRollupOf } from '../src/pg/usage-rollup.js';
import { USAGE_SUMS_BOUNDARIES, usageSumsOf } from '../src/pg/usage-sums.js';
import { pgSuite, startPostgres, type TestPostgres } from './pg-harness.js';

/** The first 16 hex digits of each shipped migration's SQL text's SHA-256. */
const SHIPPED: readonly string[] = [
  '1 10ea44f595b6b7e2',
  '2 2102fd1b063e69e1',
  '3 a39a6cfb12994f93',
  '4 6768dd301138d44f',
  '5 976b159dcd038f1e',
  '6 368dca7fa4d936bc',
  '7 23c9dc7879eea03b',
  '8 b0b26b77ce52889e',
  '9 44649442551ed88f',
  '10 80dc3fb137fa3a49',
  '11 2aa09ba84a3b650a',
  '12 f7496fbfeff66107',
  '13 019f59618bcd2d36',
  '14 5b6d1c6ce8249032',
  '15 aa6acc0bbc534c20',
  '16 604321af8453abbf',
  '17 d0773844caebc497',
  '18 376d77a0e0641f56',
  '19 e120ae6609376dc3',
  '20 99930f09cdc11b92',
  '21 67c26f1d58c6e1ba',
  '22 28268e771def9301',
  '23 fd2b62a43fb8891d',
  '24 b2ac89f80583ab17',
  '25 68308a367763e76a',
  '26 73e71f4e206c6593',
  '27 d2e8fc19670b27be',
  '28 d581a5eb9c4961c3',
  '29 13360a03c7ea5c5a',
  '30 a41e066596207951',
];

// No database needed: run wherever the tests run, PostgreSQL or not (the fast loop too).
it("the shipped migrations' texts and code (`run`) never change (a change is a new migration)", () => {
  const digests = migrations.map(
    (m) =>
      `${m.version} ${createHash('sha256')
        .update(`${m.sql}${m.run?.toString() ?? ''}`)
        .digest('hex')
        .slice(0, 16)}`,
  );
  expect(digests).toEqual(SHIPPED);
});

pgSuite('team schema migrations (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: TeamDb;
  beforeAll(async () => {
    pg = await startPostgres();
    db = await openTeamDb({ url: pg.url, schema: 'team_a' });
  });
  afterAll(async () => {
    await db?.close();
    await pg?.stop();
  });

  const tables = async (schema: string) =>
    (
      await db.sql<{ table_name: string }[]>`
        select table_name from information_schema.tables where table_schema = ${schema} order by table_name`
    ).map((r) => r.table_name);

  it('creates the schema from nothing, and a second run is a no-op', async () => {
    expect(await schemaVersion(db.sql, 'team_a')).toBe(0);
    expect(await migrate(db.sql, 'team_a')).toEqual(migrations.map((m) => m.version));
    expect((await tables('team_a')).join(' ')).toBe(
      'behind_copies call_copies calls chunks devices file_chunks files forgotten_sessions migrations otel_events ' +
        'otel_metrics otel_spans otel_unknown people response_copies responses search_docs search_words ' +
        'server_settings session_list sessions usage_rollup usage_sums viewers',
    );
    expect(await migrate(db.sql, 'team_a')).toEqual([]);
    expect(await schemaVersion(db.sql, 'team_a')).toBe(migrations.length);
  });

  it('upgrades a schema left at an older version, keeping its rows', async () => {
    await migrate(db.sql, 'team_b', migrations.slice(0, 1));
    expect(await schemaVersion(db.sql, 'team_b')).toBe(1);
    await db.sql.unsafe(`insert into team_b.people (name, salt) values ('ann', repeat('ab', 32))`);
    expect(await migrate(db.sql, 'team_b')).toEqual(migrations.slice(1).map((m) => m.version));
    expect(await db.sql.unsafe(`select name from team_b.people`)).toEqual([{ name: 'ann' }]);
    expect(await tables('team_b')).toEqual(await tables('team_a'));
  });

  it('drops the documents of version 6; their sessions are indexed again from their chunks', async () => {
    await migrate(
      db.sql,
      'team_e',
      migrations.filter((m) => m.version <= 6),
    );
    const uid = 'ab'.repeat(16);
    await db.sql.unsafe(`
      insert into team_e.people (name, salt) values ('ann', repeat('ab', 32));
      insert into team_e.sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body)
        values (1, '${uid}', 'full', 'd', 'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, '{}');
      insert into team_e.docs (person_id, uid, seq, kind, body, words) values
        (1, '${uid}', 0, 'prompt', 'npm test', array_to_tsvector('{npm,test}'));`);
    expect(await migrate(db.sql, 'team_e')).toEqual(migrations.filter((m) => m.version > 6).map((m) => m.version));
    expect(await tables('team_e')).toEqual(await tables('team_a'));
    // the session stays; indexMissingDocs (run when the server starts) finds it without words
    expect(
      await db.sql.unsafe(`select uid from team_e.sessions s where not exists
      (select 1 from team_e.search_words w where w.person_id = s.person_id and w.uid = s.uid)`),
    ).toEqual([{ uid }]);
  });

  it("version 12 adds the documents' starts, empty: sessions stored before get theirs on first need", async () => {
    await migrate(
      db.sql,
      'team_h',
      migrations.filter((m) => m.version <= 11),
    );
    const uid = 'ef'.repeat(16);
    await db.sql.unsafe(`
      insert into team_h.people (name, salt) values ('ann', repeat('ab', 32));
      insert into team_h.sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body)
        values (1, '${uid}', 'full', 'd', 'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, '{}');`);
    expect(await migrate(db.sql, 'team_h')).toEqual(migrations.map((m) => m.version).filter((v) => v >= 12));
    expect(await tables('team_h')).toEqual(await tables('team_a'));
    expect(await db.sql.unsafe(`select uid from team_h.sessions`)).toEqual([{ uid }]);
    expect(await db.sql.unsafe(`select uid from team_h.search_docs`)).toEqual([]);
    // a session's starts go with it
    await db.sql.unsafe(`insert into team_h.search_docs values (1, '${uid}', '{0}', '{0}', '{}', '{}')`);
    await db.sql.unsafe(`delete from team_h.sessions`);
    expect(await db.sql.unsafe(`select uid from team_h.search_docs`)).toEqual([]);
  });

  it("version 13 drops the metadata tier's subagent prompts, telling each by its call's summary", async () => {
    await migrate(
      db.sql,
      'team_m',
      migrations.filter((m) => m.version <= 12),
    );
    const sub = (key: string, parentCallId: string | null) => ({
      key,
      agentId: key,
      parentCallId,
      linkedBy: 'agent-id',
      prompt: `SECRET-PLAN for ${key}`,
      agentType: 'general-purpose',
      startedAt: null,
      endedAt: null,
      events: 3,
      toolCalls: 1,
      errors: 0,
      expectedErrors: 0,
    });
    const body = (subagents: unknown[]) =>
      JSON.stringify({ header: { totalEvents: 4, subagents } }).replace(/'/g, "''");
    const meta = 'a1'.repeat(16);
    const full = 'b2'.repeat(16);
    await db.sql.unsafe(`
      insert into team_m.people (name, salt) values ('ann', repeat('ab', 32));
      insert into team_m.sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body) values
        (1, '${meta}', 'metadata', 'd', 'claude', 's1', 'h', '{}', '{}', 1, 0, false, 0,
          '${body([sub('a1', 'toolu_1'), sub('a2', null)])}'),
        (1, '${full}', 'full', 'd', 'claude', 's2', 'h', '{}', '{}', 1, 0, false, 0, '${body([sub('b1', 'toolu_1')])}');
      insert into team_m.calls (person_id, uid, seq, call_id, tool, canonical, status, summary)
        values (1, '${meta}', 0, 'toolu_1', 'Task', 'agent', 'ok', 'Survey the tests (general-purpose)');`);
    expect(
      await migrate(
        db.sql,
        'team_m',
        migrations.filter((m) => m.version <= 13),
      ),
    ).toEqual([13]);
    const stored = async (uid: string) => {
      const rows = await db.sql.unsafe<{ s: Record<string, unknown>[] }[]>(
        `select body->'header'->'subagents' as s from team_m.sessions where uid = '${uid}'`,
      );
      return rows[0]?.s ?? [];
    };
    const [first, second] = await stored(meta);
    expect(JSON.stringify(await stored(meta))).not.toContain('SECRET-PLAN');
    expect([first?.key, first?.description, first?.events, second?.key, second?.description]).toEqual([
      'a1',
      'Survey the tests (general-purpose)',
      3,
      'a2',
      null,
    ]);
    // the full tier keeps its prompts (its transcripts hold them anyway)
    expect((await stored(full))[0]?.prompt).toBe('SECRET-PLAN for b1');
  });

  it('version 14 drops every row of a uid two people hold (which is whose cannot be told), then refuses a second', async () => {
    await migrate(
      db.sql,
      'team_u',
      migrations.filter((m) => m.version <= 13),
    );
    const uid = 'c3'.repeat(16);
    const row = (person: number, at: string) =>
      `(${person}, '${uid}', 'summary', 'd', 'claude', 's${person}', 'h', '{}', '{}', 0, 0, false, 0, '{}', '${at}')`;
    await db.sql.unsafe(`
      insert into team_u.people (name, salt) values ('ann', repeat('ab', 32)), ('mallory', repeat('cd', 32));
      insert into team_u.sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body, pushed_at)
        values ${row(1, '2026-11-01T10:00:00Z')}, ${row(2, '2026-11-02T10:00:00Z')};`);
    expect(
      await migrate(
        db.sql,
        'team_u',
        migrations.filter((m) => m.version <= 14),
      ),
    ).toEqual([14]);
    expect(await db.sql.unsafe(`select person_id::int as p from team_u.sessions`)).toEqual([]);
    // its owner's next push stores it again; another person's then meets the index
    await db.sql.unsafe(`insert into team_u.sessions (person_id, uid, tier, digest, agent, session_id, project_hash,
      models, versions, tool_calls, errors, has_errors, tokens, body)
      values (1, '${uid}', 'summary', 'd', 'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, '{}')`);
    await expect(
      db.sql.unsafe(`insert into team_u.sessions (person_id, uid, tier, digest, agent, session_id,
      project_hash, models, versions, tool_calls, errors, has_errors, tokens, body)
      values (2, '${uid}', 'summary', 'd', 'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, '{}')`),
    ).rejects.toThrow(/sessions_uid_key/);
  });

  it('version 10 sums the responses stored before it; later inserts add to the sums', async () => {
    await migrate(
      db.sql,
      'team_f',
      migrations.filter((m) => m.version <= 9),
    );
    const uid = 'cd'.repeat(16);
    const response = (seq: number, ts: string, input: number) =>
      `(1, '${uid}', ${seq}, ${ts}, 'claude-sonnet-4-5', ${input}, 100, 10, 4, 50, 0)`;
    const insert = (rows: string[]) => `insert into team_f.responses (person_id, uid, seq, ts_ms, model, input,
      output, cache_creation, cache_creation_1h, cache_read, reasoning) values ${rows.join(', ')}`;
    await db.sql.unsafe(`
      insert into team_f.people (name, salt) values ('ann', repeat('ab', 32));
      insert into team_f.sessions (person_id, uid, tier, digest, agent, session_id, project_hash, models, versions,
        tool_calls, errors, has_errors, tokens, body)
        values (1, '${uid}', 'summary', 'd', 'claude', 's', 'h', '{}', '{}', 0, 0, false, 0, '{}');
      ${insert([response(0, '1795168800000', 1000), response(1, '1795168800001', 199_990), response(2, 'null', 5)])}`);
    expect(await migrate(db.sql, 'team_f')).toEqual(migrations.filter((m) => m.version > 9).map((m) => m.version));
    const sums = usageSumsOf('team_f.responses');
    const drift = async () => [
      ...(await db.sql.unsafe(`${sums} except all select * from team_f.usage_sums`)),
      ...(await db.sql.unsafe(`select * from team_f.usage_sums except all ${sums}`)),
    ];
    const [{ n } = { n: 0 }] = await db.sql.unsafe(`select count(*)::int as n from team_f.usage_sums`);
    expect(n).toBe(3);
    expect(await drift()).toEqual([]);
    await db.sql.unsafe(insert([response(3, '1795168800002', 1000)]));
    expect(await drift()).toEqual([]);
    // the check sees a table left behind
    await db.sql.unsafe(`drop trigger responses_usage_sums on team_f.responses`);
    await db.sql.unsafe(insert([response(4, '1795168800003', 1000)]));
    expect((await drift()).length).toBe(2);
    // the bands are core's: other boundaries need a migration that fills the table again
    expect([...USAGE_SUMS_BOUNDARIES]).toEqual([...PROMPT_BOUNDARIES]);
  });

  it("version 11 sums usage_sums per project; inserts add, a session's delete takes its sums off", async () => {
    await migrate(
      db.sql,
      'team_g',
      migrations.filter((m) => m.version <= 10),
    );
    const uids = ['ef'.repeat(16), 'fe'.repeat(16), 'aa'.repeat(16)];
    const response = (uid: string, seq: number, ts: string, input: number) =>
      `(1, '${uid}', ${seq}, ${ts}, 'claude-sonnet-4-5', ${input}, 100, 10, 4, 50, 0)`;
    const insert = (rows: string[]) => `insert into team_g.responses (person_id, uid, seq, ts_ms, model, input,
      output, cache_creation, cache_creation_1h, cache_read, reasoning) values ${rows.join(', ')}`;
    // two sessions of one project (one without a project path, as a summary-tier session), one of another
    const session = (uid: string, hash: string, path: string) => `insert into team_g.sessions (person_id, uid, tier,
      digest, agent, session_id, project_hash, project_path, models, versions, tool_calls, errors, has_errors, tokens,
      body) values (1, '${uid}', 'full', 'd', 'claude', 's', '${hash}', ${path}, '{}', '{}', 0, 0, false, 0, '{}')`;
    await db.sql.unsafe(`
      insert into team_g.people (name, salt) values ('ann', repeat('ab', 32));
      ${session(uids[0] ?? '', 'h', "'/p'")}; ${session(uids[1] ?? '', 'h', "'/p'")}; ${session(uids[2] ?? '', 'h', 'null')};
      ${insert([
        response(uids[0] ?? '', 0, '1795168800000', 1000),
        response(uids[1] ?? '', 0, '1795168800001', 2000),
        response(uids[2] ?? '', 0, 'null', 5),
      ])}`);
    expect(await migrate(db.sql, 'team_g')).toEqual(migrations.filter((m) => m.version > 10).map((m) => m.version));
    const rollup = usageRollupOf('team_g.usage_sums').replace('join sessions', 'join team_g.sessions');
    const drift = async () => [
      ...(await db.sql.unsafe(`(${rollup}) except all select * from team_g.usage_rollup`)),
      ...(await db.sql.unsafe(`select * from team_g.usage_rollup except all (${rollup})`)),
    ];
    const count = async () =>
      (await db.sql.unsafe(`select count(*)::int as n, sum(n)::int as responses from team_g.usage_rollup`))[0];
    // the two sessions of '/p' in one quarter-hour and band: one row
    expect(await count()).toEqual({ n: 2, responses: 3 });
    expect(await drift()).toEqual([]);
    await db.sql.unsafe(insert([response(uids[0] ?? '', 1, '1795168800002', 1000)]));
    expect(await count()).toEqual({ n: 2, responses: 4 });
    expect(await drift()).toEqual([]);
    // a session's delete takes its sums off; a row summing nothing goes
    await db.sql.unsafe(`delete from team_g.sessions where uid = '${uids[0]}'`);
    expect(await count()).toEqual({ n: 2, responses: 2 });
    await db.sql.unsafe(`delete from team_g.sessions where uid = '${uids[2]}'`);
    expect(await count()).toEqual({ n: 1, responses: 1 });
    expect(await drift()).toEqual([]);
    // the check sees a table left behind, on insert and on delete
    await db.sql.unsafe(`drop trigger responses_usage_rollup on team_g.responses`);
    await db.sql.unsafe(insert([response(uids[1] ?? '', 1, '1795168800003', 1000)]));
    expect((await drift()).length).toBe(2);
    await db.sql.unsafe(`truncate team_g.usage_rollup; insert into team_g.usage_rollup ${rollup}`);
    await db.sql.unsafe(`drop trigger sessions_usage_rollup on team_g.sessions`);
    await db.sql.unsafe(`delete from team_g.sessions where uid = '${uids[1]}'`);
    expect((await drift()).length).toBe(1);
  });

  it('version 16 counts the responses that recorded no input: none before it, then as inserted and deleted', async () => {
    await migrate(
      db.sql,
      'team_n',
      migrations.filter((m) => m.version <= 15),
    );
    const uids = ['1a'.repeat(16), '2b'.repeat(16)];
    const columns = `person_id, uid, seq, ts_ms, model, input, output, cache_creation, cache_creation_1h, cache_read,
      reasoning`;
    const response = (uid: string, seq: number, input: number) =>
      `(1, '${uid}', ${seq}, ${1795168800000 + seq}, 'gpt-5.4-mini', ${input}, 100, 0, 0, 0, 0`;
    const session = (uid: string) => `insert into team_n.sessions (person_id, uid, tier, digest, agent, session_id,
      project_hash, project_path, models, versions, tool_calls, errors, has_errors, tokens, body)
      values (1, '${uid}', 'full', 'd', 'copilot', 's', 'h', '/p', '{}', '{}', 0, 0, false, 0, '{}')`;
    await db.sql.unsafe(`
      insert into team_n.people (name, salt) values ('ann', repeat('ab', 32));
      ${session(uids[0] ?? '')}; ${session(uids[1] ?? '')};
      insert into team_n.responses (${columns}) values ${response(uids[0] ?? '', 0, 1000)});`);
    expect(await migrate(db.sql, 'team_n')).toEqual(migrations.filter((m) => m.version > 15).map((m) => m.version));
    const sums = usageSumsOf('team_n.responses');
    const rollup = usageRollupOf('team_n.usage_sums').replace('join sessions', 'join team_n.sessions');
    const drift = async () => [
      ...(await db.sql.unsafe(`${sums} except all select * from team_n.usage_sums`)),
      ...(await db.sql.unsafe(`select * from team_n.usage_sums except all ${sums}`)),
      ...(await db.sql.unsafe(`(${rollup}) except all select * from team_n.usage_rollup`)),
      ...(await db.sql.unsafe(`select * from team_n.usage_rollup except all (${rollup})`)),
    ];
    const counted = async () =>
      await db.sql.unsafe(`select (select sum(n)::int from team_n.usage_rollup) as n,
        (select sum(unrecorded)::int from team_n.usage_sums) as sums,
        (select sum(unrecorded)::int from team_n.usage_rollup) as rollup`);
    // the rows stored before recorded their input
    expect(await counted()).toEqual([{ n: 1, sums: 0, rollup: 0 }]);
    expect(await drift()).toEqual([]);
    // a later insert adds its count, to the quarter-hour's sums of the same model and band too
    await db.sql.unsafe(`insert into team_n.responses (${columns}, input_unrecorded) values
      ${response(uids[0] ?? '', 1, 0)}, true), ${response(uids[1] ?? '', 0, 0)}, true),
      ${response(uids[1] ?? '', 1, 0)}, false)`);
    expect(await counted()).toEqual([{ n: 4, sums: 2, rollup: 2 }]);
    expect(await drift()).toEqual([]);
    // a session's delete takes its count off
    await db.sql.unsafe(`delete from team_n.sessions where uid = '${uids[1]}'`);
    expect(await counted()).toEqual([{ n: 2, sums: 1, rollup: 1 }]);
    expect(await drift()).toEqual([]);
  });

  it('two servers migrating at once apply each step once', async () => {
    const other = await openTeamDb({ url: pg.url, schema: 'team_c' });
    const results = await Promise.all([migrate(db.sql, 'team_c'), migrate(other.sql, 'team_c')]);
    await other.close();
    expect(results.map((r) => r.length).sort()).toEqual([0, migrations.length]);
    expect(await schemaVersion(db.sql, 'team_c')).toBe(migrations.length);
  });

  it('refuses a schema migrated by a newer agentdash', async () => {
    await migrate(db.sql, 'team_d');
    await db.sql.unsafe(`insert into team_d.migrations (version, name) values (999, 'from the future')`);
    await expect(migrate(db.sql, 'team_d')).rejects.toThrow(
      /newer than this agentdash knows .* upgrade agentdash on the team server/,
    );
  });

  it('says in one line when PostgreSQL cannot be reached', async () => {
    await expect(openTeamDb({ url: 'postgres://nobody@127.0.0.1:1/x' })).rejects.toThrow(
      'cannot connect to PostgreSQL at postgres://nobody@127.0.0.1:1/x: connection refused',
    );
  });
});
