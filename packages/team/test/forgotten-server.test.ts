/**
 * The team server's own record of the sessions a person forgot (`push --forget`), against a real PostgreSQL over HTTP:
 * telemetry of such a session sent after the forget is dropped and counted in the OTLP answer, the forgotten uid stays
 * its owner's (another person's push of it is refused, as a held uid's is, and so is the owner's own), and the owner's
 * `push --unforget` clears the record.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MetadataSession } from '../src/contract.js';
import { MAX_MANIFEST_ENTRIES } from '../src/contract.js';
import { lockUids } from '../src/pg/forgotten.js';
import { addDevice } from '../src/pg/people.js';
import { lockSessionTelemetry } from '../src/pg/telemetry-tier.js';
import { TeamClient } from '../src/push/client.js';
import { NANO, personOf, underLocks } from './forgotten-harness.js';
import { kv } from './otlp-planted.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession, seal, uidOf } from './wire.js';

pgSuite("the team server's record of forgotten sessions (real PostgreSQL, real HTTP)", () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  /** The person's id. */
  const idOf = async (name: string) =>
    (await team.db.sql<{ id: number }[]>`select id::int from people where name = ${name}`)[0]?.id ?? 0;
  const titlesOf = async (uid: string) =>
    (
      await team.db.sql<{ name: string; title: string }[]>`
        select p.name, s.title from sessions s join people p on p.id = s.person_id where s.uid = ${uid}`
    ).map((r) => `${r.name}: ${r.title}`);

  it('telemetry of a forgotten session sent after the forget is dropped and counted, until its owner unforgets', async () => {
    const gus = await personOf(team, 'gus');
    const ida = await personOf(team, 'ida');
    expect((await gus.push(70)).json.data).toMatchObject({ stored: 1 });
    await gus.send(['session-70'], 'r1');
    expect(await gus.held('session-70')).toBe(4);
    expect((await gus.forget([uidOf(70)])).json.data).toEqual({ forgotten: 1 });
    expect(await gus.held('session-70')).toBe(0);
    // the agent still running (or its exporter retrying): the forgotten session's records are dropped, said in the
    // OTLP answer's partial success; a session never pushed in the same requests is stored
    const late = await gus.send(['session-70', 'session-71'], 'r2');
    const why = 'of sessions forgotten on this team server (push --forget)';
    expect(late).toEqual({
      '/v1/logs': { partialSuccess: { rejectedLogRecords: '2', errorMessage: `2 records ${why} are dropped` } },
      '/v1/traces': { partialSuccess: { rejectedSpans: '1', errorMessage: `1 record ${why} is dropped` } },
      '/v1/metrics': { partialSuccess: { rejectedDataPoints: '1', errorMessage: `1 record ${why} is dropped` } },
    });
    // an exporter sending protobuf is answered in protobuf: ExportLogsServiceResponse { partial_success = 1 {
    // rejected_log_records = 1, error_message = 2 } }
    const answer = await gus.sendProtobuf('session-70');
    const message = Buffer.from(`1 record ${why} is dropped`);
    const partial = Buffer.concat([Buffer.from([0x08, 1, 0x12, message.length]), message]);
    expect(answer).toEqual(Buffer.concat([Buffer.from([0x0a, partial.length]), partial]));
    expect([await gus.held('session-70'), await gus.held('session-71')]).toEqual([0, 4]);
    // the record is the owner's: another person's session of that id keeps its telemetry
    expect(await ida.send(['session-70'], 'r3')).toEqual({ '/v1/logs': {}, '/v1/traces': {}, '/v1/metrics': {} });
    expect(await ida.held('session-70')).toBe(4);
    // unforgotten by its owner, the session's telemetry is stored again
    expect((await gus.unforget([uidOf(70)])).json.data).toEqual({ unforgotten: [uidOf(70)] });
    await gus.send(['session-70'], 'r4');
    expect(await gus.held('session-70')).toBe(4);
  });

  it("a forgotten uid stays its owner's: another person's push of it is refused, the owner's until unforgotten", async () => {
    const kim = await personOf(team, 'kim');
    const lev = await personOf(team, 'lev');
    expect((await kim.push(72, 'kim: before')).json.data).toMatchObject({ stored: 1 });
    expect((await kim.forget([uidOf(72)])).json.data).toEqual({ forgotten: 1 });
    // the uid copied from the dashboard before the forget: refused as while kim held the session
    const taken = `session ${uidOf(72)}: another person holds a session of this uid`;
    expect((await lev.push(72, 'lev: taken over')).json.data).toEqual({
      stored: 0,
      unchanged: 0,
      refused: [{ uid: uidOf(72), reason: taken }],
    });
    // kim's own push of it (another laptop of hers, one that did not forget it) is refused too: forgotten stays so
    const forgotten = `session ${uidOf(72)}: forgotten on this team server (push --forget); push --unforget from an upgraded agentdash (any laptop of the person) sends it again`;
    expect((await kim.push(72, 'kim: again')).json.data).toEqual({
      stored: 0,
      unchanged: 0,
      refused: [{ uid: uidOf(72), reason: forgotten }],
    });
    expect(await titlesOf(uidOf(72))).toEqual([]);
    // lev cannot unforget (nor forget) it for her
    expect((await lev.unforget([uidOf(72)])).json.data).toEqual({ unforgotten: [] });
    expect((await lev.push(72, 'lev: taken over')).json.data).toMatchObject({ stored: 0 });
    expect((await kim.unforget([uidOf(72)])).json.data).toEqual({ unforgotten: [uidOf(72)] });
    expect((await kim.push(72, 'kim: again')).json.data).toMatchObject({ stored: 1 });
    expect(await titlesOf(uidOf(72))).toEqual(['kim: kim: again']);
  });

  // A review: the same transcripts pushed from another home of the person's (a desktop's /home/ann beside a laptop's
  // /Users/ann: another uid) were stored again after the forget, title and all, and their telemetry kept.
  it("the person's copy of a forgotten session under another uid is refused until the unforget; one held before is not", async () => {
    const uma = await personOf(team, 'uma');
    // generated ids (uuids), as Claude Code's: one id names one session wherever it is
    const id = (n: number) => `${String(n).repeat(4)}-0000-4000-8000-0000000000${n}`;
    const session = (n: number, title: string, uid: string = uidOf(n)) =>
      seal<MetadataSession>({ ...metadataSession(n, title), sessionId: id(n), uid });
    expect((await uma.pushSessions([session(60, 'uma: laptop')])).json.data).toMatchObject({ stored: 1 });
    // a session held under two uids before the forget (the transcript's and a copy of it): updates of the one kept go on
    const kept = session(61, 'uma: copy', uidOf('61-copy'));
    expect((await uma.pushSessions([session(61, 'uma: 61'), kept])).json.data).toMatchObject({ stored: 2 });
    expect((await uma.forget([uidOf(60), uidOf('61-copy')])).json.data).toEqual({ forgotten: 2 });
    const desktop = session(60, 'uma: desktop', uidOf('60-desktop'));
    const copy = `session ${uidOf('60-desktop')}: a copy of a session forgotten on this team server (push --forget); push --unforget from an upgraded agentdash (any laptop of the person) sends it again`;
    expect((await uma.pushSessions([desktop])).json.data).toEqual({
      stored: 0,
      unchanged: 0,
      refused: [{ uid: uidOf('60-desktop'), reason: copy }],
    });
    expect(await titlesOf(uidOf('60-desktop'))).toEqual([]);
    expect((await uma.pushSessions([session(61, 'uma: changed')])).json.data).toMatchObject({ stored: 1 });
    expect(await titlesOf(uidOf(61))).toEqual(['uma: uma: changed']);
    // another person's session of the id is theirs
    const vic = await personOf(team, 'vic');
    expect((await vic.pushSessions([session(60, 'vic', uidOf('60-vic'))])).json.data).toMatchObject({ stored: 1 });
    // an id its agent did not generate (Aider's `aider-<repo folder>`) may be two sessions of the person: not refused
    const aider = (uid: string, title: string) =>
      seal<MetadataSession>({ ...metadataSession(62, title), sessionId: 'aider-app', uid });
    expect((await uma.pushSessions([aider(uidOf('62-work'), 'uma: ~/work/app')])).json.data).toMatchObject({
      stored: 1,
    });
    expect((await uma.forget([uidOf('62-work')])).json.data).toEqual({ forgotten: 1 });
    expect((await uma.pushSessions([aider(uidOf('62-oss'), 'uma: ~/oss/app')])).json.data).toMatchObject({
      stored: 1,
    });
    // the desktop's own unforget (of its uid, the one its push was refused for) clears the forget of the laptop's
    // too: the desktop's copy is stored, and so would the laptop's be
    expect((await uma.unforget([uidOf('60-desktop')])).json.data).toEqual({ unforgotten: [uidOf('60-desktop')] });
    expect((await uma.pushSessions([desktop])).json.data).toMatchObject({ stored: 1 });
    expect(await titlesOf(uidOf('60-desktop'))).toEqual(['uma: uma: desktop']);
    expect((await uma.pushSessions([session(60, 'uma: laptop again')])).json.data).toMatchObject({ stored: 1 });
  });

  it("forgetting one of a person's two sessions of one id (a run's output the transcript superseded) keeps the id's telemetry", async () => {
    const oz = await personOf(team, 'oz');
    // the transcript's session and the headless run's copy of it: two uids, one session id
    const copy = seal<MetadataSession>({ ...metadataSession(76, 'the run output'), uid: uidOf('76-copy') });
    expect((await oz.pushSessions([metadataSession(76), copy])).json.data).toMatchObject({ stored: 2 });
    await oz.send(['session-76'], 'r5');
    expect(await oz.held('session-76')).toBe(4);
    // the copy forgotten: the transcript's session keeps its telemetry, before and after
    expect((await oz.forget([uidOf('76-copy')])).json.data).toEqual({ forgotten: 1 });
    expect(await oz.held('session-76')).toBe(4);
    expect(await oz.send(['session-76'], 'r6')).toEqual({ '/v1/logs': {}, '/v1/traces': {}, '/v1/metrics': {} });
    // the new span and tool result; the prompt and the cost point, cut to the session's metadata tier, are those held
    expect(await oz.held('session-76')).toBe(6);
    // and once the transcript's session is forgotten too, the id's telemetry goes, and stays out
    expect((await oz.forget([uidOf(76)])).json.data).toEqual({ forgotten: 1 });
    expect(await oz.held('session-76')).toBe(0);
    await oz.send(['session-76'], 'r7');
    expect(await oz.held('session-76')).toBe(0);
    // until the transcript's is unforgotten: the copy's record of the id goes with it (before, it stayed, and the
    // id's telemetry was still dropped)
    expect((await oz.unforget([uidOf(76)])).json.data).toEqual({ unforgotten: [uidOf(76)] });
    await oz.send(['session-76'], 'r11');
    expect(await oz.held('session-76')).toBe(4);
  });

  it("two forgets at once of two sessions of one id (a transcript and its copy) delete the id's telemetry", async () => {
    const pia = await personOf(team, 'pia');
    // three ids, each held by a transcript's session and its headless run's copy (six forgets: a connection each, the
    // pool's ten less this test's two); the copy of another project (their usage rolled up in rows of their own: the
    // two deletes do not wait on one row)
    const ids = [80, 82, 84];
    const copyOf = (n: number) =>
      seal<MetadataSession>({
        ...metadataSession(n + 1, 'the run output'),
        uid: uidOf(`${n}-copy`),
        sessionId: `session-${n}`,
      });
    const sessions = ids.flatMap((n) => [metadataSession(n), copyOf(n)]);
    expect((await pia.pushSessions(sessions)).json.data).toMatchObject({ stored: 6 });
    await pia.send(
      ids.map((n) => `session-${n}`),
      'r8',
    );
    const heldAll = async () => Promise.all(ids.map((n) => pia.held(`session-${n}`)));
    expect(await heldAll()).toEqual([4, 4, 4]);
    // each pair's forgets start together. Before, each could delete its session before the other read, so both read
    // the other's still stored and neither deleted the id's telemetry, which stayed and was served.
    const forgets = ids.flatMap((n) => [() => pia.forget([uidOf(n)]), () => pia.forget([uidOf(`${n}-copy`)])]);
    const answers = await underLocks(
      team,
      (tx) =>
        lockUids(
          tx,
          sessions.map((s) => s.uid),
        ),
      forgets,
    );
    expect(answers.map((a) => a.json.data)).toEqual(forgets.map(() => ({ forgotten: 1 })));
    expect(await heldAll()).toEqual([0, 0, 0]);
  });

  it('an unforget while a forget of the uid is under way clears its record once it is written', async () => {
    const quin = await personOf(team, 'quin');
    expect((await quin.push(86)).json.data).toMatchObject({ stored: 1 });
    await quin.send(['session-86'], 'r10');
    // the forget waits on the id's telemetry (an export storing it), its record not written yet; the unforget sent
    // then waits for it. Before, the unforget read no record, cleared nothing, and the forget's record stayed.
    const personId = await idOf('quin');
    const [forgot, unforgot] = await underLocks(team, (tx) => lockSessionTelemetry(tx, personId, ['session-86']), [
      () => quin.forget([uidOf(86)]),
      () => quin.unforget([uidOf(86)]),
    ]);
    expect([forgot?.json.data, unforgot?.json.data]).toEqual([{ forgotten: 1 }, { unforgotten: [uidOf(86)] }]);
    expect(await team.db.sql`select uid from forgotten_sessions where uid = ${uidOf(86)}`).toEqual([]);
    expect((await quin.push(86)).json.data).toMatchObject({ stored: 1 });
  });

  it('a forget of as many uids as a request holds forgets them all', async () => {
    const rae = await personOf(team, 'rae');
    expect((await rae.push(88)).json.data).toMatchObject({ stored: 1 });
    // 50,000 uids (the request's most), one a stored session. Before, one lock each in one transaction: PostgreSQL's
    // lock table (64 per connection) ran out of shared memory, and the forget was a 500.
    const uids = [uidOf(88), ...Array.from({ length: MAX_MANIFEST_ENTRIES - 1 }, (_, i) => uidOf(`rae-${i}`))];
    const answer = await rae.forget(uids);
    expect([answer.status, answer.json.data]).toEqual([200, { forgotten: 1 }]);
    const [records] = await team.db.sql<{ n: number }[]>`
      select count(*)::int as n from forgotten_sessions where person_id = ${await idOf('rae')}`;
    expect(records?.n).toBe(MAX_MANIFEST_ENTRIES);
    expect(await titlesOf(uidOf(88))).toEqual([]);
    // and so does the unforget of them all (a lock each too)
    const unforgot = await rae.unforget(uids);
    expect([unforgot.status, (unforgot.json.data as { unforgotten: string[] }).unforgotten.length]).toEqual([
      200,
      MAX_MANIFEST_ENTRIES,
    ]);
  });

  it('a take-back deletes without recording; sent to a server without the route, it is a forget', async () => {
    const sal = await personOf(team, 'sal');
    await addDevice(team.db.sql, 'sal', 'ci', 'full').then(async ({ token }) => {
      const asked: string[] = [];
      const older: typeof fetch = async (input, init) => {
        const path = new URL(String(input)).pathname.replace(/^.*\/api\/team\/v1/, '');
        asked.push(path);
        if (path === '/push/take-back' && asked.length > 1) {
          return new Response(JSON.stringify({ success: false, error: 'not found' }), { status: 404 });
        }
        return fetch(input, init);
      };
      const client = new TeamClient({ url: team.url, token, fetch: older, retryMs: 0 });
      expect((await sal.pushSessions([metadataSession(90), metadataSession(91)])).json.data).toMatchObject({
        stored: 2,
      });
      expect(await client.takeBack([uidOf(90)])).toBe(1);
      // the server before the route: a forget, as that server's take-back was
      expect(await client.takeBack([uidOf(91)])).toBe(1);
      expect(asked).toEqual(['/push/take-back', '/push/take-back', '/push/forget']);
    });
    const records = await team.db.sql<{ uid: string }[]>`select uid from forgotten_sessions
      where uid = any(${[uidOf(90), uidOf(91)]}::text[])`;
    expect(records.map((r) => r.uid)).toEqual([uidOf(91)]);
  });

  it("a histogram naming a session (Gemini CLI's latencies) is deleted by its forget and dropped after it", async () => {
    const tess = await personOf(team, 'tess');
    expect((await tess.push(92)).json.data).toMatchObject({ stored: 1 });
    // a histogram's data points (a metric type not modelled: stored as sent, in otel_unknown) naming the session
    const histogram = (round: string) => ({
      resourceMetrics: [
        {
          resource: { attributes: [kv('service.name', 'gemini-cli')] },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: 'gemini_cli.api.request.latency',
                  histogram: {
                    aggregationTemporality: 1,
                    dataPoints: [
                      {
                        timeUnixNano: NANO,
                        count: '1',
                        sum: 12,
                        attributes: [kv('session.id', 'session-92'), kv('round', round)],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    const unknown = async () =>
      (
        await team.db.sql<
          { n: number }[]
        >`select count(*)::int as n from otel_unknown where person_id = ${await idOf('tess')}`
      )[0]?.n;
    const token = (await addDevice(team.db.sql, 'tess', 'desk', 'full')).token;
    expect((await team.request('POST', '/v1/metrics', histogram('r1'), { token })).status).toBe(200);
    expect(await unknown()).toBe(1);
    // before, kept at the device's tier, raw attributes and all, and stored again after the forget
    expect((await tess.forget([uidOf(92)])).json.data).toEqual({ forgotten: 1 });
    expect(await unknown()).toBe(0);
    const late = await team.request('POST', '/v1/metrics', histogram('r2'), { token });
    expect(late.json).toMatchObject({ partialSuccess: { rejectedDataPoints: '1' } });
    expect(await unknown()).toBe(0);
  });

  it("another person's forget of a held uid neither deletes it nor keeps it from its owner", async () => {
    const mo = await personOf(team, 'mo');
    const ned = await personOf(team, 'ned');
    expect((await mo.push(74, 'mo: hers')).json.data).toMatchObject({ stored: 1 });
    expect((await ned.forget([uidOf(74)])).json.data).toEqual({ forgotten: 0 });
    expect((await mo.push(74, 'mo: changed')).json.data).toMatchObject({ stored: 1 });
    expect((await mo.forget([uidOf(74)])).json.data).toEqual({ forgotten: 1 });
    expect((await mo.unforget([uidOf(74)])).json.data).toEqual({ unforgotten: [uidOf(74)] });
    const forgotten = await team.db.sql`select * from forgotten_sessions where uid = ${uidOf(74)}`;
    expect(forgotten).toEqual([]);
  });
});
