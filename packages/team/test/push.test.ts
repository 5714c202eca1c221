/** The push routes against a real PostgreSQL over HTTP: auth, limits, versions, idempotence, tiers, forget. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChunks } from '../src/chunk-batch.js';
import { MAX_CHUNK_BYTES, MAX_PUSH_BODY_BYTES, TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { digestOf } from '../src/digest.js';
import { addDevice, addViewer, revoke } from '../src/pg/people.js';
import { chunkReads } from '../src/pg/transcripts.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { chunksOf, fullSession, metadataSession, sessionsBody, summarySession, uidOf } from './wire.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };

pgSuite('team push routes (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  describe('tokens', () => {
    it('whoami names the person and device and hands over the salt', async () => {
      const res = await team.request('GET', '/api/team/v1/whoami');
      expect(res.status).toBe(200);
      const data = res.json.data as { person: string; device: string; role: string; salt: string; version: number };
      expect({ ...data, salt: /^[0-9a-f]{64}$/.test(data.salt) }).toEqual({
        version: TEAM_PAYLOAD_VERSION,
        role: 'device',
        person: 'ann',
        device: 'laptop',
        salt: true,
      });
    });

    it('401 without a token or with an unknown one; 403 for a viewer that pushes', async () => {
      expect((await team.request('GET', '/api/team/v1/whoami', undefined, { token: null })).json).toEqual({
        success: false,
        error: 'a team token is required: Authorization: Bearer <token>',
        code: 'TEAM_NO_TOKEN',
      });
      expect((await team.request('GET', '/api/team/v1/whoami', undefined, { token: 'adt_nope' })).status).toBe(401);
      const viewer = await addViewer(team.db.sql, 'lead');
      const res = await team.pushSessions([summarySession(1)], { token: viewer.token });
      expect([res.status, res.json.code]).toEqual([403, 'TEAM_NOT_A_DEVICE']);
    });

    it('a revoked device gets 401 on its very next request', async () => {
      const { token } = await addDevice(team.db.sql, 'ann', 'ci');
      expect((await team.request('GET', '/api/team/v1/whoami', undefined, { token })).status).toBe(200);
      await revoke(team.db.sql, 'ann/ci');
      const res = await team.pushSessions([summarySession(1)], { token });
      expect([res.status, res.json.error]).toEqual([401, 'unknown or revoked token']);
    });
  });

  describe('refused bodies change nothing', () => {
    let before: string;
    beforeAll(async () => {
      expect((await team.pushSessions([summarySession(100)])).json.data).toEqual({ stored: 1, unchanged: 0 });
      before = await team.dump();
    });
    afterAll(async () => {
      expect(await team.dump()).toBe(before);
    });

    it('400 for a body that is not JSON, or not the schema, in one line', async () => {
      const notJson = await team.request('POST', '/api/team/v1/push/sessions', undefined, { raw: '{"version":1,' });
      expect([notJson.status, notJson.json.error]).toEqual([400, 'the body is not JSON']);
      const bad = await team.request('POST', '/api/team/v1/push/sessions', {
        version: TEAM_PAYLOAD_VERSION,
        sessions: [{ tier: 'summary' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatch(/^sessions\.0\.\w+: .* \(and \d+ more problems\)$/);
    });

    it('400 for a summary-tier session carrying a title (the tier is strict)', async () => {
      const leaky = { ...summarySession(101), title: 'secret project' };
      const res = await team.pushSessions([leaky as never]);
      expect([res.status, res.json.error]).toEqual([400, 'sessions.0: Unrecognized key: "title"']);
    });

    it("400 for a digest that is not the content's", async () => {
      const s = { ...summarySession(100), errors: 99 };
      const res = await team.pushSessions([s]);
      expect([res.status, res.json.code]).toEqual([400, 'TEAM_BAD_DIGEST']);
    });

    it('409 for another payload version, saying which side to upgrade', async () => {
      const newer = await team.request(
        'POST',
        '/api/team/v1/push/sessions',
        sessionsBody([], TEAM_PAYLOAD_VERSION + 1),
      );
      expect([newer.status, newer.json.error]).toEqual([
        409,
        `payload version ${TEAM_PAYLOAD_VERSION + 1} is not this team server's (${TEAM_PAYLOAD_VERSION}): upgrade the team server`,
      ]);
      const older = await team.request('POST', '/api/team/v1/push/forget', { version: 0, uids: [] });
      expect(older.json.error).toMatch(/upgrade agentdash on this laptop$/);
      const header = await team.request('GET', '/api/team/v1/whoami', undefined, {
        headers: { 'agentdash-team-payload': '0' },
      });
      expect(header.status).toBe(409);
    });

    it('413 above the limit, counted after gzip is undone', async () => {
      const huge = JSON.stringify({
        version: TEAM_PAYLOAD_VERSION,
        sessions: [],
        pad: 'x'.repeat(MAX_PUSH_BODY_BYTES),
      });
      const plain = await team.request('POST', '/api/team/v1/push/sessions', undefined, { raw: huge });
      expect([plain.status, plain.json.code]).toEqual([413, 'TEAM_BODY_TOO_LARGE']);
      const zipped = await team.request('POST', '/api/team/v1/push/sessions', undefined, { raw: huge, gzip: true });
      expect(zipped.status).toBe(413);
      // a request that lists names only is held to 8 MiB
      const manifest = JSON.stringify({
        version: TEAM_PAYLOAD_VERSION,
        device,
        sessions: [],
        pad: 'x'.repeat(9 << 20),
      });
      const listed = await team.request('POST', '/api/team/v1/push/manifest', undefined, { raw: manifest });
      expect([listed.status, listed.json.code]).toEqual([413, 'TEAM_BODY_TOO_LARGE']);
      const chunk = Buffer.alloc(MAX_CHUNK_BYTES + 1, 7);
      const put = await team.request('PUT', `/api/team/v1/push/chunks/${'0'.repeat(64)}`, undefined, { raw: chunk });
      expect(put.status).toBe(413);
    });

    it('400 for a chunk whose bytes are not its name, or a full session whose chunks are missing', async () => {
      const [c] = chunksOf(['{"type":"user"}\n']);
      const wrong = await team.request('PUT', `/api/team/v1/push/chunks/${'a'.repeat(64)}`, undefined, {
        raw: c!.bytes,
      });
      expect(wrong.status).toBe(400);
      const missing = await team.pushSessions([fullSession(102, chunksOf(['a\n', 'b\n']))]);
      expect([missing.status, missing.json.error]).toEqual([
        400,
        '2 transcript chunks are not stored: upload them first (PUT /api/team/v1/push/chunks/:sha256)',
      ]);
    });
  });

  it('takes a laptop of payload 1 (no copies in its headers): it still pushes and forgets', async () => {
    const v1 = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([summarySession(61)], 1));
    expect([v1.status, v1.json.data]).toEqual([200, { stored: 1, unchanged: 0 }]);
    const forgot = await team.request('POST', '/api/team/v1/push/forget', { version: 1, uids: [uidOf(61)] });
    expect([forgot.status, forgot.json.data]).toEqual([200, { forgotten: 1 }]);
  });

  it('stores several chunks in one request, each once, and refuses a body with one wrong chunk whole', async () => {
    const chunks = chunksOf(['batch one\n', 'batch two\n', 'batch three\n']);
    const post = (body: Buffer) =>
      team.request('POST', '/api/team/v1/push/chunks', undefined, {
        raw: body,
        headers: { 'content-type': 'application/octet-stream' },
      });
    const stored = async () =>
      (
        await team.db
          .sql`select count(*)::int as n from chunks where sha256 in ${team.db.sql(chunks.map((c) => c.sha256))}`
      )[0]?.n;
    // the second chunk's bytes under the third's name: nothing of the body is stored
    const wrong = await post(encodeChunks([chunks[0]!, { sha256: chunks[2]!.sha256, bytes: chunks[1]!.bytes }]));
    expect([wrong.status, wrong.json.code, await stored()]).toEqual([400, 'TEAM_BAD_BODY', 0]);
    // cut inside the second chunk's name (after the first's 64-byte name, 4-byte length and bytes)
    const cut = await post(encodeChunks(chunks).subarray(0, 68 + chunks[0]!.bytes.length + 10));
    expect([cut.status, cut.json.error]).toEqual([400, 'chunk 2: the body ends inside its name and length']);
    const first = await post(encodeChunks([chunks[0]!, chunks[1]!, chunks[0]!]));
    expect([first.status, first.json.data, await stored()]).toEqual([200, { stored: 2 }, 2]);
    const again = await post(encodeChunks(chunks));
    expect([again.json.data, await stored()]).toEqual([{ stored: 1 }, 3]);
  });

  it("cuts a pushed session's words from the chunks it just received, not read back from PostgreSQL", async () => {
    const chunks = chunksOf(['{"type":"user","message":{"role":"user","content":"words kept in memory"}}\n']);
    const sent = await team.request('POST', '/api/team/v1/push/chunks', undefined, {
      raw: encodeChunks(chunks),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(sent.json.data).toEqual({ stored: 1 });
    const before = chunkReads.fetched;
    expect((await team.pushSessions([fullSession(40, chunks)])).json.data).toEqual({ stored: 1, unchanged: 0 });
    expect(chunkReads.fetched - before).toBe(0);
    // gone again: the next tests count every row
    const forgot = await team.request('POST', '/api/team/v1/push/forget', {
      version: TEAM_PAYLOAD_VERSION,
      uids: [uidOf(40)],
    });
    expect(forgot.json.data).toEqual({ forgotten: 1 });
    // and unforgotten: a later test pushes a session of this uid again (a forgotten one is refused)
    const unforgot = await team.request('POST', '/api/team/v1/push/unforget', {
      version: TEAM_PAYLOAD_VERSION,
      uids: [uidOf(40)],
    });
    expect(unforgot.json.data).toEqual({ unforgotten: [uidOf(40)] });
  });

  it('stores every tier, and a gzip body reads the same', async () => {
    const chunks = chunksOf(['{"type":"user","n":1}\n', '{"type":"assistant","n":2}\n']);
    const check = await team.request('POST', '/api/team/v1/push/chunks/check', {
      version: TEAM_PAYLOAD_VERSION,
      chunks: chunks.map((c) => c.sha256),
    });
    expect((check.json.data as { missing: string[] }).missing).toHaveLength(2);
    for (const c of chunks) {
      const put = await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
      expect(put.json.data).toEqual({ stored: true });
    }
    const again = await team.request('PUT', `/api/team/v1/push/chunks/${chunks[0]!.sha256}`, undefined, {
      raw: chunks[0]!.bytes,
    });
    expect(again.json.data).toEqual({ stored: false });
    const res = await team.request(
      'POST',
      '/api/team/v1/push/sessions',
      sessionsBody([summarySession(1), metadataSession(2), fullSession(3, chunks)]),
      { gzip: true },
    );
    expect([res.status, res.json.data]).toEqual([200, { stored: 3, unchanged: 0 }]);
    const rows = await team.db
      .sql`select uid, tier, title, tool_calls from sessions where uid in ${team.db.sql([uidOf(1), uidOf(2), uidOf(3)])} order by uid`;
    expect(rows.map((r) => [r.tier, r.title])).toEqual(
      [
        [uidOf(1), 'summary', null],
        [uidOf(2), 'metadata', 'fix the build 2'],
        [uidOf(3), 'full', 'fix the build 3'],
      ]
        .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
        .map(([, t, title]) => [t, title]),
    );
    const [counts] = await team.db
      .sql`select (select count(*)::int from calls) as calls, (select count(*)::int from files) as files`;
    expect(counts).toEqual({ calls: 8, files: 1 });
  });

  it('a re-push of unchanged sessions changes 0 rows; the manifest wants only what changed', async () => {
    const manifest = async (sessions: { uid: string; digest: string }[]) =>
      (await team.request('POST', '/api/team/v1/push/manifest', { version: TEAM_PAYLOAD_VERSION, device, sessions }))
        .json.data;
    const s1 = summarySession(1);
    const changed = metadataSession(2, 'a new title');
    expect(await manifest([s1, changed, summarySession(50)].map(({ uid, digest }) => ({ uid, digest })))).toEqual({
      want: [changed.uid, uidOf(50)],
    });
    const before = await team.dump();
    expect((await team.pushSessions([s1, metadataSession(2)])).json.data).toEqual({ stored: 0, unchanged: 2 });
    expect(await team.dump()).toBe(before);
  });

  it('ten pushers of the same sessions at once store each once, never doubled', async () => {
    const sessions = [10, 11, 12, 13, 14].map((n) => metadataSession(n));
    const results = await Promise.all(Array.from({ length: 10 }, () => team.pushSessions(sessions)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const totals = results.map((r) => r.json.data as { stored: number; unchanged: number });
    expect(totals.reduce((n, t) => n + t.stored, 0)).toBe(5);
    expect(totals.reduce((n, t) => n + t.unchanged, 0)).toBe(45);
    const uids = sessions.map((s) => s.uid);
    const [rows] = await team.db.sql`select
      (select count(*)::int from sessions where uid in ${team.db.sql(uids)}) as sessions,
      (select count(*)::int from calls where uid in ${team.db.sql(uids)}) as calls,
      (select count(*)::int from responses where uid in ${team.db.sql(uids)}) as responses`;
    expect(rows).toEqual({ sessions: 5, calls: 10, responses: 10 });
    expect(await team.listDrift()).toEqual([]);
    expect(await team.sumsDrift()).toEqual([]);
  });

  it("the sessions list's copy follows every push, re-push and forget, ten devices at once", async () => {
    const tokens = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => (await addDevice(team.db.sql, 'ann', `box${i}`)).token),
    );
    // each device its own session and one session all of them push, at once; then each changed, then a tier lowered
    // or the session forgotten, at once
    const own = (i: number, title?: string) => [metadataSession(40 + i, title), metadataSession(60, title)];
    const first = await Promise.all(tokens.map((token, i) => team.pushSessions(own(i), { token })));
    expect(first.map((r) => r.status)).toEqual(Array(10).fill(200));
    await Promise.all(tokens.map((token, i) => team.pushSessions(own(i, `changed on box${i}`), { token })));
    await Promise.all(
      tokens.map((token, i) =>
        i % 2 === 0
          ? team.pushSessions([summarySession(40 + i)], { token })
          : team.request(
              'POST',
              '/api/team/v1/push/forget',
              { version: TEAM_PAYLOAD_VERSION, uids: [uidOf(40 + i)] },
              { token },
            ),
      ),
    );
    expect(await team.listDrift()).toEqual([]);
    expect(await team.sumsDrift()).toEqual([]);
    const uids = [...Array(10).keys(), 20].map((i) => uidOf(40 + i));
    const [listed] = await team.db.sql`select count(*)::int as n, count(*) filter (where title is null)::int as untitled
      from session_list where uid in ${team.db.sql(uids)}`;
    expect(listed).toEqual({ n: 6, untitled: 5 });
  });

  it('a lower tier pushed later replaces the higher one, its chunks and titles gone', async () => {
    const chunks = chunksOf(['only in session 20\n']);
    for (const c of chunks)
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    expect((await team.pushSessions([fullSession(20, chunks)])).json.data).toEqual({ stored: 1, unchanged: 0 });
    // the answer says which sessions went lower (before: nothing said), and again at the same tier nothing
    expect((await team.pushSessions([summarySession(20)])).json.data).toEqual({
      stored: 1,
      unchanged: 0,
      lowered: [{ uid: uidOf(20), from: 'full' }],
    });
    const [row] = await team.db
      .sql`select tier, title, project_path, body ? 'title' as has_title from sessions where uid = ${uidOf(20)}`;
    expect(row).toEqual({ tier: 'summary', title: null, project_path: null, has_title: false });
    const [left] = await team.db.sql`select
      (select count(*)::int from chunks where sha256 = ${chunks[0]!.sha256}) as chunks,
      (select count(*)::int from files where uid = ${uidOf(20)}) as files,
      (select count(*)::int from calls where uid = ${uidOf(20)} and summary is not null) as summaries`;
    expect(left).toEqual({ chunks: 0, files: 0, summaries: 0 });
    expect(await team.listDrift()).toEqual([]);
    expect(await team.sumsDrift()).toEqual([]);
  });

  it("forget deletes the person's sessions with their rows and chunks", async () => {
    const chunks = chunksOf(['forget me\n']);
    for (const c of chunks)
      await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
    await team.pushSessions([fullSession(30, chunks), summarySession(31)]);
    const res = await team.request('POST', '/api/team/v1/push/forget', {
      version: TEAM_PAYLOAD_VERSION,
      uids: [uidOf(30), uidOf(31), uidOf(999)],
    });
    expect(res.json.data).toEqual({ forgotten: 2 });
    const [left] = await team.db.sql`select
      (select count(*)::int from sessions where uid in (${uidOf(30)}, ${uidOf(31)})) as sessions,
      (select count(*)::int from calls where uid in (${uidOf(30)}, ${uidOf(31)})) as calls,
      (select count(*)::int from chunks where sha256 = ${chunks[0]!.sha256}) as chunks`;
    expect(left).toEqual({ sessions: 0, calls: 0, chunks: 0 });
    expect(await team.listDrift()).toEqual([]);
    expect(await team.sumsDrift()).toEqual([]);
  });

  it("usage's sums follow a session of thousands of responses (several inserts), re-pushed shorter", async () => {
    // 2,500 responses: three insert statements of one session adding to the same sums; four bands (each in one of
    // two quarter-hours) of two models, and the same without a time: 16 sums
    const many = (count: number) => {
      const base = summarySession(70);
      const t0 = Date.parse(base.startedAt ?? '');
      const responses = Array.from({ length: count }, (_, i) => ({
        ...base.responses[0]!,
        tsMs: i % 97 === 0 ? null : t0 + (i % 2) * 900_000 + i,
        model: i % 3 === 0 ? 'claude-opus-4-1' : 'claude-sonnet-4-5',
        input: [10, 31_990, 199_990, 271_990][i % 4]!,
        cacheCreation1h: i % 5,
      }));
      const s = { ...base, responses, digest: '' };
      return { ...s, digest: digestOf(s) };
    };
    expect((await team.pushSessions([many(2_500)])).json.data).toEqual({ stored: 1, unchanged: 0 });
    const count = async () =>
      (await team.db.sql`select count(*)::int as rows, sum(n)::int as n from usage_sums where uid = ${uidOf(70)}`)[0];
    expect(await count()).toEqual({ rows: 16, n: 2_500 });
    expect(await team.sumsDrift()).toEqual([]);
    expect((await team.pushSessions([many(40)])).json.data).toEqual({ stored: 1, unchanged: 0 });
    expect((await count())?.n).toBe(40);
    expect(await team.sumsDrift()).toEqual([]);
  });
});
