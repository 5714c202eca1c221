/**
 * Which sessions share a call with another session of their person (real PostgreSQL): migration 24 marks those
 * stored before it, a store marks the new one and the one it shares with, and the list's totals take from the sums
 * the calls a selected session owning them counts instead. The end-to-end figures (a laptop's two homes, pushed)
 * are stats-two-homes.test.ts's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copiedTotals, markCallCopies } from '../src/pg/call-copies.js';
import { openTeamDb, type TeamDb } from '../src/pg/db.js';
import { migrate, migrations } from '../src/pg/migrations.js';
import { pgSuite, startPostgres, type TestPostgres } from './pg-harness.js';

const uid = (c: string) => c.repeat(32);

pgSuite('sessions that share calls (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: TeamDb;
  beforeAll(async () => {
    pg = await startPostgres();
    db = await openTeamDb({ url: pg.url, schema: 'team_cc' });
    await migrate(
      db.sql,
      'team_cc',
      migrations.filter((m) => m.version <= 23),
    );
    const session = (person: number, u: string, agent: string, sid: string, start: number, end: number) =>
      `(${person}, '${u}', 'summary', 'd', '${agent}', '${sid}', 'h', ${start}, ${end}, '{}', '{}', 2, 1, true, 0,
        '{"messages": 3, "expectedErrors": 0}')`;
    const call = (person: number, u: string, seq: number, id: string, status: string) =>
      `(${person}, '${u}', ${seq}, '${id}', 'Bash', 'Bash', '${status}')`;
    await db.sql.unsafe(`
      insert into people (name, salt) values ('ann', repeat('ab', 32)), ('bob', repeat('cd', 32));
      insert into sessions (person_id, uid, tier, digest, agent, session_id, project_hash, started_ms, ended_ms,
        models, versions, tool_calls, errors, has_errors, tokens, body) values
        ${session(1, uid('a'), 'claude', 's1', 1000, 5000)}, ${session(1, uid('b'), 'claude', 's2', 2000, 6000)},
        ${session(1, uid('c'), 'codex', 's3', 1000, 5000)}, ${session(2, uid('d'), 'claude', 's4', 1000, 5000)},
        ${session(1, uid('e'), 'claude', 's5', 3000, 7000)};
      insert into calls (person_id, uid, seq, call_id, tool, canonical, status) values
        ${call(1, uid('a'), 0, 'x', 'error')}, ${call(1, uid('a'), 1, 'a-own', 'ok')},
        ${call(1, uid('b'), 0, 'x', 'error')}, ${call(1, uid('b'), 1, 'b-own', 'ok')},
        ${call(1, uid('c'), 0, 'x', 'error')}, ${call(1, uid('c'), 1, 'y', 'ok')},
        ${call(2, uid('d'), 0, 'x', 'error')}, ${call(2, uid('d'), 1, 'y', 'ok')},
        ${call(1, uid('e'), 0, 'y', 'ok')}, ${call(1, uid('e'), 1, 'e-own', 'ok')};`);
    expect(
      await migrate(
        db.sql,
        'team_cc',
        migrations.filter((m) => m.version <= 24),
      ),
    ).toEqual([24]);
  });
  afterAll(async () => {
    await db?.close();
    await pg?.stop();
  });

  const marked = async () =>
    (await db.sql<{ uid: string }[]>`select uid from call_copies order by uid`).map((r) => r.uid.slice(0, 1));

  it('marks the sessions stored before it that share a call id with one of their person and agent', async () => {
    // not another agent's call of that id (c: codex), nor another person's (d: bob), nor a call no one shares (e)
    expect(await marked()).toEqual(['a', 'b']);
  });

  it("takes from the list's sums each call a selected session owning it counts instead", async () => {
    // a started first: it owns x; b's copy of it (an error) is taken from the sums
    expect(await copiedTotals(db.sql, {})).toEqual({ toolCalls: 1, errors: 1, expectedErrors: 0 });
    // b alone: its copy is its own there, a is not in the list
    expect(await copiedTotals(db.sql, { ids: [uid('b')] })).toEqual({ toolCalls: 0, errors: 0, expectedErrors: 0 });
    // a period that leaves a out (it ended before 5,500): b counts its copy
    expect(await copiedTotals(db.sql, { since: 5500 })).toEqual({ toolCalls: 0, errors: 0, expectedErrors: 0 });
  });

  it('marks a stored session and each earlier one of its agent it shares a call with', async () => {
    await db.sql.begin(async (tx) => {
      await markCallCopies(tx, 1, { uid: uid('e'), agent: 'claude' }, ['y', 'e-own']);
    });
    // c holds y too, but is codex's
    expect(await marked()).toEqual(['a', 'b']);
    await db.sql.begin(async (tx) => {
      await tx.unsafe(`insert into sessions (person_id, uid, tier, digest, agent, session_id, project_hash,
        started_ms, ended_ms, models, versions, tool_calls, errors, has_errors, tokens, body)
        values (1, '${uid('f')}', 'summary', 'd', 'claude', 's5', 'h', 3000, 8000, '{}', '{}', 1, 0, false, 0, '{}');
        insert into calls (person_id, uid, seq, call_id, tool, canonical, status)
        values (1, '${uid('f')}', 0, 'e-own', 'Read', 'Read', 'ok')`);
      await markCallCopies(tx, 1, { uid: uid('f'), agent: 'claude' }, ['e-own']);
    });
    expect(await marked()).toEqual(['a', 'b', 'e', 'f']);
    // f and e are copies of one session (s5, the same start): the newest, f, owns e-own; e's copy is taken
    expect(await copiedTotals(db.sql, { ids: [uid('e'), uid('f')] })).toEqual({
      toolCalls: 1,
      errors: 0,
      expectedErrors: 0,
    });
  });
});
