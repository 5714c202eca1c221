/**
 * The team server when its PostgreSQL goes away (stopped, restarted, the network down): every route answers 503 with
 * a message naming the database, the dashboard's as the push's, and answers again once PostgreSQL is back. The team
 * server reaches PostgreSQL through a TCP relay here, which the test closes and opens again.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTeamDb, type TeamDb } from '../src/pg/db.js';
import { migrate } from '../src/pg/migrations.js';
import { addDevice, addPerson, addViewer } from '../src/pg/people.js';
import { keepStatistics } from '../src/pg/statistics.js';
import { TeamClient } from '../src/push/client.js';
import { createTeamApp } from '../src/server/team-app.js';
import { createTeamLiveEvents, type TeamLiveEvents } from '../src/server/team-live.js';
import { pgSuite, startPostgres, type TestPostgres } from './pg-harness.js';

/** A TCP relay to `target`: `close` drops every connection and refuses new ones, `open` listens again. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

pgSuite('the team server without its PostgreSQL (real PostgreSQL, a relay closed)', () => {
  let pg: TestPostgres;
  let direct: TeamDb;
  let relayed: TeamDb;
  let relay: Relay;
  let events: TeamLiveEvents;
  let http: ServerType | undefined;
  let url: string;
  let device: string;
  let viewer: string;

  beforeAll(async () => {
    pg = await startPostgres();
    direct = await openTeamDb({ url: pg.url });
    await migrate(direct.sql, direct.schema);
    await addPerson(direct.sql, 'ann');
    device = (await addDevice(direct.sql, 'ann', 'laptop')).token;
    viewer = (await addViewer(direct.sql, 'lead')).token;
    const target = new URL(pg.url);
    relay = new Relay({ host: target.hostname, port: Number(target.port) });
    await relay.open();
    const relayedUrl = new URL(pg.url);
    relayedUrl.port = String(relay.port);
    relayed = await openTeamDb({ url: relayedUrl.toString(), max: 2 });
    // live events on a connection of their own, not the one that goes away
    events = createTeamLiveEvents(direct.sql);
    await events.ready;
    const app = createTeamApp({ sql: relayed.sql, events, statistics: keepStatistics(relayed.sql) });
    const port = await new Promise<number>((resolve) => {
      http = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
    });
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    http?.close();
    await relay?.close();
    await relayed?.sql.end({ timeout: 1 });
    await direct?.close();
    await pg?.stop();
  });

  const get = async (path: string, token: string) => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { success: boolean; error?: string; code?: string } };
  };

  it('answers 503 naming the database while it is gone, and answers again once it is back', async () => {
    expect((await get('/api/sessions', viewer)).status).toBe(200);

    await relay.close();
    // Before: 500 "internal error" from every route, the push's as the dashboard's.
    for (const [path, token] of [
      ['/api/sessions', viewer],
      ['/api/usage', viewer],
      ['/api/team/v1/whoami', device],
    ] as const) {
      const { status, body } = await get(path, token);
      expect([path, status, body.code]).toEqual([path, 503, 'TEAM_DB_UNREACHABLE']);
      expect(body.error).toMatch(/^the team server cannot reach its database \(connection \w+\): try again/);
    }
    // A push waits for a 503 to pass (30 minutes by default); with no time to wait, it says why it stopped.
    const pushing = new TeamClient({ url, token: device, retryMs: 0, busyBudgetMs: 0 });
    await expect(pushing.whoami()).rejects.toThrow(/answered 503 to GET \/whoami: the team server cannot reach its/);

    await relay.open();
    // The pool notices its connections are gone when it next uses them: an answer or two may still be the 503 above
    // (postgres.js 4 answers the first query after the database is back from the connection it had).
    let back = await get('/api/sessions', viewer);
    for (const until = Date.now() + 10_000; back.status !== 200 && Date.now() < until; ) {
      expect([back.status, back.body.code]).toEqual([503, 'TEAM_DB_UNREACHABLE']);
      await new Promise((resolve) => setTimeout(resolve, 25));
      back = await get('/api/sessions', viewer);
    }
    expect(back.status).toBe(200);
    expect((await get('/api/team/v1/whoami', device)).body.success).toBe(true);
  });
});
