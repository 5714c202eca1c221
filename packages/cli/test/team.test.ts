/** `agentdash team …` against a real PostgreSQL: tokens shown once, stored as hashes, stable errors and exit codes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTeamDb, type TeamDb } from '@agentdash/team';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pgSuite, startPostgres, type TestPostgres } from '../../team/test/pg-harness.js';
import { renderErased } from '../src/commands/team.js';
import { runCli, startServe } from './harness.js';

pgSuite('agentdash team (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: TeamDb;
  let home: string;
  beforeAll(async () => {
    pg = await startPostgres();
    db = await openTeamDb({ url: pg.url, schema: 'agentdash' });
    home = mkdtempSync(join(tmpdir(), 'agentdash-team-cli-'));
  });
  afterAll(async () => {
    await db?.close();
    await pg?.stop();
    rmSync(home, { recursive: true, force: true });
  });
  const team = (args: readonly string[], env: Record<string, string> = {}) =>
    runCli(['team', ...args], { home, db: join(home, 'index.sqlite'), env: { AGENTDASH_PG_URL: pg.url, ...env } });

  it('adds people, devices and viewers; prints each token once and stores only its hash', async () => {
    expect(await team(['add-person', 'ann', '--json'])).toEqual({
      code: 0,
      stdout: '{\n  "person": "ann"\n}\n',
      stderr: '',
    });
    const device = await team(['add-device', 'ann', 'laptop', '--json']);
    expect(device.code).toBe(0);
    const { token } = JSON.parse(device.stdout) as { token: string };
    expect(token).toMatch(/^adt_[A-Za-z0-9_-]{43}$/);
    const plain = await team(['add-device', 'ann', 'desktop']);
    expect(plain.stdout).toMatch(/^adt_[A-Za-z0-9_-]{43}\n$/);
    const viewer = await team(['add-viewer', 'lead', '--json', '--pg', pg.url]);
    expect(Object.keys(JSON.parse(viewer.stdout) as object)).toEqual(['viewer', 'token']);
    const stored = await db.sql<{ token_hash: string }[]>`
      select token_hash from agentdash.devices union all select token_hash from agentdash.viewers`;
    expect(stored).toHaveLength(3);
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash) && !r.token_hash.includes(token))).toBe(true);
    const [salt] = await db.sql<{ salt: string }[]>`select salt from agentdash.people where name = 'ann'`;
    expect(salt?.salt).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists everyone with --json, never a token', async () => {
    const listed = await team(['list', '--json']);
    const listing = JSON.parse(listed.stdout) as {
      people: { name: string; sessions: number; devices: { name: string; revokedAt: string | null }[] }[];
      viewers: { name: string }[];
    };
    expect(listing.people.map((p) => [p.name, p.sessions, p.devices.map((d) => [d.name, d.revokedAt])])).toEqual([
      [
        'ann',
        0,
        [
          ['desktop', null],
          ['laptop', null],
        ],
      ],
    ]);
    expect(listing.viewers.map((v) => v.name)).toEqual(['lead']);
    expect(listed.stdout).not.toMatch(/adt_|token/);
  });

  it('revokes a device, a viewer, or a person with all their devices', async () => {
    expect(JSON.parse((await team(['revoke', 'ann/laptop', '--json'])).stdout)).toEqual({
      kind: 'device',
      name: 'ann/laptop',
      tokens: 1,
    });
    expect(JSON.parse((await team(['revoke', 'lead', '--json'])).stdout)).toEqual({
      kind: 'viewer',
      name: 'lead',
      tokens: 1,
    });
    expect((await team(['revoke', 'ann'])).stdout).toBe('revoked person ann and 1 device token\n');
    const active = await db.sql`select name from agentdash.devices where revoked_at is null`;
    expect(active).toEqual([]);
  });

  it('erases a viewer (revoke --erase) and a person (erase) with --json', async () => {
    await team(['add-viewer', 'temp']);
    expect(JSON.parse((await team(['revoke', 'temp', '--erase', '--json'])).stdout)).toEqual({
      kind: 'viewer',
      name: 'temp',
      sessions: 0,
      telemetry: 0,
      chunks: 0,
      tokens: 1,
    });
    await team(['add-person', 'cy']);
    await team(['add-device', 'cy', 'laptop']);
    expect((await team(['erase', 'cy'])).stdout).toBe(
      'erased person cy: 0 sessions, 0 telemetry records, 0 transcript chunks; 1 token stopped working\n',
    );
    const left = await db.sql`select name from agentdash.people where name = 'cy'
      union all select name from agentdash.viewers where name = 'temp'`;
    expect(left).toEqual([]);
    expect((await team(['list', '--erase'])).code).toBe(2);
  });

  it('answers unknown names, duplicates and an unreachable database with stable codes, in one line', async () => {
    await team(['add-person', 'bob']);
    expect(await team(['add-person', 'bob'])).toEqual({
      code: 10,
      stdout: '',
      stderr: 'agentdash: a person named bob exists already\n',
    });
    expect(await team(['add-device', 'nobody', 'x', '--json'])).toEqual({
      code: 9,
      stdout: '',
      stderr: `${JSON.stringify({
        error: {
          kind: 'team-unknown-name',
          message: 'no person named nobody: add them first (agentdash team add-person)',
          exitCode: 9,
        },
      })}\n`,
    });
    expect((await team(['revoke', 'ghost'])).code).toBe(9);
    expect(await team(['list'], { AGENTDASH_PG_URL: 'postgres://me:secret@127.0.0.1:1/team' })).toEqual({
      code: 8,
      stdout: '',
      stderr: 'agentdash: cannot connect to PostgreSQL at postgres://me:***@127.0.0.1:1/team: connection refused\n',
    });
    expect((await team(['list'], { AGENTDASH_PG_URL: '' })).stderr).toBe(
      'agentdash: give the team database: --pg postgres://… (or set AGENTDASH_PG_URL)\n',
    );
    expect((await team(['frobnicate'])).code).toBe(2);
    expect((await team(['add-person', 'a/b'])).code).toBe(2);
  });
});

it('says what an erase removed with each noun singular for one, plural otherwise', () => {
  const one = { kind: 'device', name: 'ann/ci', sessions: 1, telemetry: 1, chunks: 1, tokens: 1 } as const;
  expect(renderErased(one)).toBe(
    'erased device ann/ci: 1 session, 1 telemetry record, 1 transcript chunk; 1 token stopped working\n',
  );
  expect(renderErased({ ...one, kind: 'person', name: 'ann', sessions: 2, telemetry: 0, chunks: 3, tokens: 2 })).toBe(
    'erased person ann: 2 sessions, 0 telemetry records, 3 transcript chunks; 2 tokens stopped working\n',
  );
});

pgSuite('agentdash serve --team (real PostgreSQL, the built CLI)', () => {
  let pg: TestPostgres;
  let home: string;
  beforeAll(async () => {
    pg = await startPostgres();
    home = mkdtempSync(join(tmpdir(), 'agentdash-serve-team-'));
  });
  afterAll(async () => {
    await pg?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('migrates, listens on loopback, and answers health as a team server to a team token only', async () => {
    const db = join(home, 'index.sqlite');
    const server = await startServe(['--team', '--pg', pg.url, '--pg-schema', 'team1'], db);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    try {
      const team = await openTeamDb({ url: pg.url, schema: 'team1' });
      await team.sql`insert into people (name, salt) values ('ann', repeat('ab', 32))`;
      const { addViewer } = await import('@agentdash/team');
      const { token } = await addViewer(team.sql, 'lead');
      await team.close();
      expect((await fetch(`${server.url}api/health`)).status).toBe(401);
      const health = (await (await fetch(`${server.url}api/health?token=${token}`)).json()) as { mode: string };
      expect(health.mode).toBe('team');
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  it('refuses a public address while no one holds a token, and PATHs', async () => {
    const db = join(home, 'index.sqlite');
    const open = await startServe(['--team', '--pg', pg.url, '--pg-schema', 'team2', '--host', '0.0.0.0'], db);
    expect([open.url, open.code]).toEqual([undefined, 2]);
    expect(open.stderr()).toBe(
      'agentdash: --host 0.0.0.0 is not a loopback address and no one holds a token yet: add a person (agentdash team add-person) or a viewer first\n',
    );
    const paths = await startServe(['--team', '--pg', pg.url, home], db);
    expect(paths.code).toBe(2);
  });
});
