/**
 * Pushes interrupted mid-way while their bodies are on the wire (a laptop closed, a process killed, a network gone):
 * the team server stores nothing of them, gives their turns at storing back, and goes on taking other pushes.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { createIngestGate } from '../src/server/ingest-gate.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { summarySession } from './wire.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

pgSuite('pushes cut mid-way through their bodies (real PostgreSQL, real HTTP)', () => {
  const gate = createIngestGate({ slots: 4, maxWaitMs: 2_000, retryAfterSeconds: 1 });
  let team: TeamFixture;

  beforeAll(async () => {
    team = await startTeam({ ingest: gate });
  });
  afterAll(async () => {
    await team?.close();
  });

  /** A `path` request whose body says `length` bytes and stops after `sent`, its connection then destroyed. */
  const cut = async (method: string, path: string, type: string, length: number, sent: Buffer) => {
    const { host, hostname, port } = new URL(team.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${team.token}\r\n` +
        `agentdash-team-payload: ${TEAM_PAYLOAD_VERSION}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`,
    );
    socket.write(sent);
    // the server has the headers and the first bytes, and is reading the rest
    await sleep(200);
    socket.destroy();
  };

  it('stores nothing of them, and every later push has its turn at once', async () => {
    const body = Buffer.from(JSON.stringify({ version: TEAM_PAYLOAD_VERSION, sessions: [summarySession(1)] }));
    // more cut pushes at once than the gate has turns: each must give its turn back
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        await cut('POST', '/api/team/v1/push/sessions', 'application/json', body.length, body.subarray(0, 300));
        await cut('POST', '/api/team/v1/push/chunks', 'application/octet-stream', 1_000_000, Buffer.alloc(5_000, 1));
      }),
    );
    await sleep(300);
    expect(gate.load()).toEqual({ active: 0, waiting: 0 });
    expect(await team.db.sql`select uid from sessions`).toEqual([]);
    expect(await team.db.sql`select sha256 from chunks`).toEqual([]);
    const res = await team.pushSessions([summarySession(1)]);
    expect([res.status, res.json.data]).toEqual([200, { stored: 1, unchanged: 0 }]);
  });
});
