/**
 * The push client against a real HTTP server that drops connections: a request whose connection closes under it is
 * sent again on a new one (every push request is idempotent), a few times only; a refused connection is not retried.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { TeamClient } from '../src/push/client.js';

const whoami = { version: TEAM_PAYLOAD_VERSION, role: 'device', person: 'ann', device: 'laptop', salt: 'a'.repeat(64) };

describe('push client: dropped connections', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server that drops the first `drops` requests' connections without answering, then answers whoami. */
  const dropping = async (drops: number) => {
    let seen = 0;
    server = createServer((req, res) => {
      seen += 1;
      if (seen <= drops) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: whoami }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, seen: () => seen };
  };

  it('sends a request again when its connection was closed under it', async () => {
    const s = await dropping(2);
    const client = new TeamClient({ url: s.url, token: 't' });
    expect(await client.whoami()).toEqual(whoami);
    expect(s.seen()).toBe(3);
  });

  it('gives up after a few drops, saying the server cannot be reached', async () => {
    const s = await dropping(100);
    const client = new TeamClient({ url: s.url, token: 't', retryMs: 0 });
    await expect(client.whoami()).rejects.toThrow(/cannot reach the team server/);
    expect(s.seen()).toBe(4);
  });

  it('does not retry a refused connection', async () => {
    const s = await dropping(0);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    let calls = 0;
    const client = new TeamClient({
      url: s.url,
      token: 't',
      fetch: async (input, init) => {
        calls += 1;
        return await fetch(input, init);
      },
    });
    await expect(client.whoami()).rejects.toThrow(/ECONNREFUSED/);
    expect(calls).toBe(1);
  });

  // A review: a laptop's own dashboard (or the address with a path added) answered 404, said as "the team server
  // answered 404 to GET /whoami: not found", exit 12 (a refused push).
  it('says an address whose server answers 404 to whoami is not a team server (unreachable, not refused)', async () => {
    server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: 'not found' }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const error = await new TeamClient({ url, token: 't' }).whoami().catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: `${url} is not an AgentDash team server (it answered 404 to ${url}/api/team/v1/whoami): check the address's host, port and path (agentdash serve --team prints it)`,
      code: 'TEAM_UNREACHABLE',
    });
  });

  // A review: the hint of a dropped connection (plain http to a TLS port) was given on https addresses too, and an
  // expired certificate got the advice of an untrusted one.
  it('hints at the scheme only on an http address, and tells an expired certificate apart', async () => {
    const failing = (code: string) => async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code } });
    };
    const said = async (url: string, code: string) =>
      String(
        await new TeamClient({ url, token: 't', retryMs: 0, fetch: failing(code) }).whoami().then(
          () => 'answered',
          (e: Error) => e.message,
        ),
      );
    expect(await said('http://team.example:4317', 'ECONNRESET')).toMatch(/does it speak https, and the address http\?/);
    expect(await said('https://team.example:4317', 'ECONNRESET')).toBe(
      'cannot reach the team server at https://team.example:4317: ECONNRESET',
    );
    expect(await said('https://team.example:4317', 'CERT_HAS_EXPIRED')).toMatch(/certificate has expired/);
    expect(await said('https://team.example:4317', 'CERT_HAS_EXPIRED')).not.toMatch(/NODE_EXTRA_CA_CERTS/);
  });
});
