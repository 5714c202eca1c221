/**
 * `agentdash serve --team --tls-cert --tls-key` over a real PostgreSQL with a self-signed certificate made here by
 * openssl: the dashboard's API answers over HTTPS (to a client trusting that certificate, never over plain HTTP),
 * and a real `agentdash push https://…` process, trusting it through NODE_EXTRA_CA_CERTS, pushes over it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDevice, addPerson, addViewer, migrate, openTeamDb } from '@agentdash/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSuite, startPostgres, type TestPostgres } from '../../team/test/pg-harness.js';
import { bin, startServe } from './harness.js';

const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '../samples/claude-home');
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((p) => existsSync(p));

/** A GET over HTTPS trusting `ca` only: its status and body. */
function httpsJson(url: string, token: string, ca: Buffer): Promise<{ status: number; body: unknown }> {
  return new Promise((done, fail) => {
    const req = httpsGet(url, { ca, headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) }));
      res.on('error', fail);
    });
    req.on('error', fail);
  });
}

/** Runs the built CLI as its own process: exit code and output. */
function cli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => done({ code, out, err }));
  });
}

if (!OPENSSL) describe.skip('agentdash serve --team over TLS (skipped: openssl is not installed)', () => {});
else
  pgSuite('agentdash serve --team over TLS (real PostgreSQL, a self-signed certificate, the built CLI)', () => {
    let pg: TestPostgres;
    let home: string;
    let cert: string;
    let key: string;
    let deviceToken: string;
    let viewerToken: string;
    beforeAll(async () => {
      pg = await startPostgres();
      home = mkdtempSync(join(tmpdir(), 'agentdash-team-tls-'));
      cert = join(home, 'cert.pem');
      key = join(home, 'key.pem');
      execFileSync(
        OPENSSL as string,
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2'].concat([
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ]),
        { stdio: 'ignore' },
      );
      const db = await openTeamDb({ url: pg.url, schema: 'tls' });
      await migrate(db.sql, 'tls');
      await addPerson(db.sql, 'ann');
      deviceToken = (await addDevice(db.sql, 'ann', 'laptop')).token;
      viewerToken = (await addViewer(db.sql, 'lead')).token;
      await db.close();
    }, 60_000);
    afterAll(async () => {
      await pg?.stop();
      rmSync(home, { recursive: true, force: true });
    });

    it('answers over HTTPS only, and a push over https stores the sessions', async () => {
      const server = await startServe(
        ['--team', '--pg', pg.url, '--pg-schema', 'tls', '--tls-cert', cert, '--tls-key', key],
        join(home, 'server.sqlite'),
      );
      try {
        expect([server.url?.replace(/:\d+\//, ':PORT/'), server.stderr()]).toEqual(['https://127.0.0.1:PORT/', '']);
        const url = server.url as string;
        const ca = readFileSync(cert);
        const health = await httpsJson(`${url}api/health`, viewerToken, ca);
        expect([health.status, (health.body as { mode: string }).mode]).toEqual([200, 'team']);
        // plain HTTP on the same port gets no answer
        const plain = await new Promise<string>((done) => {
          const req = httpGet(url.replace('https:', 'http:'), { agent: false }, (res) => {
            res.resume();
            done(`answered ${res.statusCode}`);
          });
          req.on('error', () => done('refused'));
        });
        expect(plain).toBe('refused');
        // the token given once in the address is kept in a cookie a browser sends over HTTPS only
        const cookie = await new Promise<string>((done, fail) => {
          const req = httpsGet(`${url}api/health?token=${viewerToken}`, { ca, agent: false }, (res) => {
            res.resume();
            done(String(res.headers['set-cookie'] ?? ''));
          });
          req.on('error', fail);
        });
        expect(cookie).toMatch(/HttpOnly/);
        expect(cookie).toMatch(/; Secure/);

        const pushed = await cli(
          [
            'push',
            url,
            '--token',
            deviceToken,
            '--share',
            'full',
            SAMPLES,
            '--db',
            join(home, 'laptop.sqlite'),
            '--json',
          ],
          { NODE_EXTRA_CA_CERTS: cert, HOME: home },
        );
        expect([pushed.code, pushed.err]).toEqual([0, '']);
        const report = JSON.parse(pushed.out) as { url: string; sessions: number; stored: number };
        expect(report.stored).toBe(report.sessions);
        expect(report.stored).toBeGreaterThan(5);
        const list = await httpsJson(`${url}api/sessions?limit=1000`, viewerToken, ca);
        expect((list.body as { total: number }).total).toBe(report.stored);
        // a rule that names no session (a typo) is said, the one that names some is not; before, both were silent
        const ruled = await cli(
          ['push', url, '--token', deviceToken, '--share', 'full', '--share-project', '/home/user/proj=full']
            .concat(['--share-project', '/home/usr/proj=summary', SAMPLES, '--db', join(home, 'laptop.sqlite')])
            .concat(['--json']),
          { NODE_EXTRA_CA_CERTS: cert, HOME: home },
        );
        expect(ruled.code).toBe(0);
        expect((JSON.parse(ruled.out) as { unmatchedRules: string[] }).unmatchedRules).toEqual([
          '/home/usr/proj=summary',
        ]);
        expect(ruled.err).toBe(
          "agentdash: warning: --share-project /home/usr/proj=summary names no session pushed (its project's path or " +
            'folder name?): sessions not named by a rule go at the default tier\n',
        );
        // the same sessions at the default tier (summary), as `serve --push` sends them: the push says what it
        // replaced on the server (before: nothing, the transcripts deleted there unnoticed)
        const lower = await cli(['push', url, '--token', deviceToken, SAMPLES, '--db', join(home, 'laptop.sqlite')], {
          NODE_EXTRA_CA_CERTS: cert,
          HOME: home,
        });
        expect(lower.code).toBe(0);
        expect(lower.err).toBe(
          `agentdash: warning: ${report.stored} sessions the team server held at a higher tier went from full to ` +
            'summary: what the higher tier held is gone there (push at that --share to send it again)\n',
        );
        // a client that does not trust the certificate gets no answer
        const untrusted = await cli(
          ['push', url, '--token', deviceToken, SAMPLES, '--db', join(home, 'other.sqlite')],
          {
            HOME: home,
          },
        );
        expect(untrusted.code).not.toBe(0);
        // saying what to do (a review: only "DEPTH_ZERO_SELF_SIGNED_CERT"), and for plain HTTP to it ("UND_ERR_SOCKET")
        expect(untrusted.err).toMatch(
          /DEPTH_ZERO_SELF_SIGNED_CERT \(the server's TLS certificate is not trusted here: .*NODE_EXTRA_CA_CERTS/,
        );
        const http = await cli(
          ['push', url.replace('https:', 'http:'), '--token', deviceToken, SAMPLES, '--db', join(home, 'other.sqlite')],
          { NODE_EXTRA_CA_CERTS: cert, HOME: home },
        );
        expect(http.code).toBe(8);
        expect(http.err).toMatch(/does it speak https, and the address http\?\)/);
      } finally {
        server.child.kill('SIGTERM');
      }
    }, 120_000);
  });
