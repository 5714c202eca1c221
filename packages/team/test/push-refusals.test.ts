/**
 * What the team server refuses of a push, and how it reads an older laptop's, against a real PostgreSQL over HTTP:
 * transcripts larger than declared or than the contract lets them (never inflated past it), payload 2's subagents
 * (their prompts dropped below the full tier), and a session whose uid another person holds (refused alone).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_CHUNK_TEXT_BYTES, MAX_SESSION_TEXT_BYTES, TEAM_PAYLOAD_VERSION } from '../src/contract.js';
import { digestOf } from '../src/digest.js';
import { indexMissingDocs } from '../src/pg/ingest.js';
import { addDevice, addPerson, addViewer } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import {
  chunksOf,
  fullSession,
  metadataSession,
  promptsTranscript,
  sessionsBody,
  summarySession,
  uidOf,
} from './wire.js';

pgSuite('what a team server refuses of a push (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  beforeAll(async () => {
    team = await startTeam();
  });
  afterAll(async () => {
    await team?.close();
  });

  it('400 for transcripts larger than they say or than the contract lets them: never inflated past it', async () => {
    const put = async (chunks: readonly { sha256: string; bytes: Buffer }[]) => {
      for (const c of chunks) {
        const r = await team.request('PUT', `/api/team/v1/push/chunks/${c.sha256}`, undefined, { raw: c.bytes });
        expect(r.status).toBe(200);
      }
    };
    const stored = async (n: number) =>
      (await team.db.sql`select count(*)::int as n from sessions where uid = ${uidOf(n)}`)[0]?.n;
    // a gzip bomb: 64 KiB of gzip that would inflate past a chunk's most
    const bomb = chunksOf(['a'.repeat(MAX_CHUNK_TEXT_BYTES + 1)]);
    await put(bomb);
    const refused = await team.pushSessions([fullSession(110, bomb, undefined, 100)]);
    expect([refused.status, refused.json.code, refused.json.error]).toEqual([
      400,
      'TEAM_TRANSCRIPT_SIZE',
      'session-110.jsonl: its chunks hold more than the 100 bytes it declares',
    ]);
    const declared = await team.pushSessions([fullSession(111, bomb, undefined, MAX_CHUNK_TEXT_BYTES + 1)]);
    expect([declared.status, declared.json.error]).toEqual([
      400,
      `session-111.jsonl: a chunk holds more than ${MAX_CHUNK_TEXT_BYTES} bytes`,
    ]);
    // one small chunk named again and again past the session's most, whatever the file declares
    const [small] = chunksOf(['{"type":"user"}\n']);
    await put([small!]);
    const many = Array.from({ length: 10 }, () => small!);
    const short = await team.pushSessions([fullSession(112, many, undefined, 16)]);
    expect([short.status, short.json.error]).toEqual([
      400,
      'session-112.jsonl: its chunks hold more than the 16 bytes it declares',
    ]);
    const huge = await team.pushSessions([fullSession(113, many, undefined, MAX_SESSION_TEXT_BYTES + 1)]);
    expect([huge.status, huge.json.code]).toEqual([413, 'TEAM_TRANSCRIPT_SIZE']);
    expect([await stored(110), await stored(111), await stored(112), await stored(113)]).toEqual([0, 0, 0, 0]);
    // declared right, it is stored
    const right = await team.pushSessions([fullSession(114, many)]);
    expect([right.status, await stored(114)]).toEqual([200, 1]);
    await team.request('POST', '/api/team/v1/push/forget', { version: TEAM_PAYLOAD_VERSION, uids: [uidOf(114)] });
  });

  it("reads a laptop of payload 2's subagents as 3 tells them: no prompt below full, its call's summary instead", async () => {
    const old = {
      key: 'a1',
      agentId: 'a1',
      parentCallId: 'toolu_62_1',
      linkedBy: 'agent-id',
      prompt: 'the whole PLAN-3c1 the subagent was given',
      agentType: 'general-purpose',
      startedAt: '2026-03-01T10:00:01.000Z',
      endedAt: '2026-03-01T10:00:09.000Z',
      events: 3,
      toolCalls: 1,
      errors: 0,
      expectedErrors: 0,
    };
    const withSub = (n: number) => {
      const m = metadataSession(n);
      const s = { ...m, header: { ...m.header, subagents: [old] }, digest: '' };
      return { ...s, digest: digestOf(s) };
    };
    // payload 3 refuses the prompt at the metadata tier: the tier is strict
    const refused = await team.pushSessions([withSub(62) as never]);
    expect([refused.status, refused.json.error]).toEqual([
      400,
      'sessions.0.header.subagents.0.description: Invalid input: expected string, received undefined (and 1 more problems)',
    ]);
    const v2 = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([withSub(62) as never], 2));
    expect([v2.status, v2.json.data]).toEqual([200, { stored: 1, unchanged: 0 }]);
    const [row] = await team.db.sql<{ body: { header: { subagents: unknown[] } }; digest: string }[]>`
      select body, digest from sessions where uid = ${uidOf(62)}`;
    const { prompt: _gone, ...rest } = old;
    expect(row?.body.header.subagents).toEqual([{ ...rest, description: 'npm test → exit 1' }]);
    expect(JSON.stringify(row)).not.toContain('PLAN-3c1');
    // its digest is the laptop's: the next manifest finds it unchanged
    expect(row?.digest).toBe(withSub(62).digest);
    const again = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([withSub(62) as never], 2));
    expect(again.json.data).toEqual({ stored: 0, unchanged: 1 });
    await team.request('POST', '/api/team/v1/push/forget', { version: 2, uids: [uidOf(62)] });
  });

  it('refuses alone a session whose uid another person holds; the rest of the push is stored', async () => {
    await addPerson(team.db.sql, 'mallory');
    const { token } = await addDevice(team.db.sql, 'mallory', 'laptop');
    expect((await team.pushSessions([metadataSession(63, 'the real one')])).status).toBe(200);
    // the uid copied from the dashboard, pushed as another person with a title of their own, beside her own session
    const copy = await team.pushSessions([metadataSession(63, 'a fake one'), metadataSession(64, 'her own')], {
      token,
    });
    expect([copy.status, copy.json.data]).toEqual([
      200,
      {
        stored: 1,
        unchanged: 0,
        refused: [{ uid: uidOf(63), reason: `session ${uidOf(63)}: another person holds a session of this uid` }],
      },
    ]);
    const rows = await team.db.sql<{ title: string }[]>`
      select title from sessions where uid in ${team.db.sql([uidOf(63), uidOf(64)])} order by title`;
    expect(rows.map((r) => r.title)).toEqual(['her own', 'the real one']);
    // a laptop of payload 2 has no room for `refused` in its answer: it is told the counts alone
    const old = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([metadataSession(63, 'x')], 2), {
      token,
    });
    expect([old.status, old.json.data]).toEqual([200, { stored: 0, unchanged: 0 }]);
    await team.request('POST', '/api/team/v1/push/forget', { version: TEAM_PAYLOAD_VERSION, uids: [uidOf(63)] });
    await team.request(
      'POST',
      '/api/team/v1/push/forget',
      { version: TEAM_PAYLOAD_VERSION, uids: [uidOf(64)] },
      { token },
    );
  });

  it('a session stored before the limits, too large to read, is a 422 and leaves the other sessions searchable', async () => {
    const [bomb] = chunksOf(['a'.repeat(MAX_CHUNK_TEXT_BYTES + 1)]);
    await team.request('PUT', `/api/team/v1/push/chunks/${bomb!.sha256}`, undefined, { raw: bomb!.bytes });
    const uid = uidOf(120);
    // as a server before the limits stored it: a full-tier session whose one file is that chunk
    const [real] = chunksOf([promptsTranscript(120, ['the session as pushed'])]);
    await team.request('PUT', `/api/team/v1/push/chunks/${real!.sha256}`, undefined, { raw: real!.bytes });
    expect((await team.pushSessions([fullSession(120, [real!])])).status).toBe(200);
    await team.db
      .sql`update files set chunks = ${[bomb!.sha256]}, bytes = ${MAX_CHUNK_TEXT_BYTES + 1} where uid = ${uid}`;
    await team.db.sql`update file_chunks set sha256 = ${bomb!.sha256} where uid = ${uid}`;
    await team.db.sql`delete from search_words where uid = ${uid}`;
    const [small] = chunksOf([promptsTranscript(121, ['a word to find: quokkafrost'])]);
    await team.request('PUT', `/api/team/v1/push/chunks/${small!.sha256}`, undefined, { raw: small!.bytes });
    expect((await team.pushSessions([fullSession(121, [small!])])).status).toBe(200);
    await team.db.sql`delete from search_words where uid = ${uidOf(121)}`;
    // the sessions left unsearchable are indexed again at start: the one too large is passed over, not the rest
    expect(await indexMissingDocs(team.db.sql)).toBe(1);
    const reader = await addViewer(team.db.sql, 'reader');
    const events = await team.request('GET', `/api/sessions/${uid}/events`, undefined, { token: reader.token });
    expect([events.status, events.json.code]).toEqual([422, 'TEAM_TRANSCRIPT_SIZE']);
    await team.request('POST', '/api/team/v1/push/forget', { version: TEAM_PAYLOAD_VERSION, uids: [uid, uidOf(121)] });
  });

  it("hashes an older laptop's Aider ids at the summary tier, as version 3 sends them", async () => {
    const base = summarySession(65);
    const raw = {
      ...base,
      agent: 'aider',
      sessionId: 'aider-secret-repo',
      calls: base.calls.map((c, i) => ({ ...c, id: `aider-secret-repo:edit:${i + 1}` })),
      digest: '',
    };
    const sealed = { ...raw, digest: digestOf(raw) };
    const res = await team.request('POST', '/api/team/v1/push/sessions', sessionsBody([sealed as never], 2));
    expect(res.status).toBe(200);
    const [row] = await team.db.sql<{ session_id: string }[]>`select session_id from sessions where uid = ${uidOf(65)}`;
    expect(row?.session_id).toMatch(/^h-[0-9a-f]{32}$/);
    const ids = await team.db.sql<
      { call_id: string }[]
    >`select call_id from calls where uid = ${uidOf(65)} order by seq`;
    expect(ids.map((c) => c.call_id)).toEqual([`${row?.session_id}:edit:1`, `${row?.session_id}:edit:2`]);
    expect(await team.dump()).not.toContain('secret-repo');
    await team.request('POST', '/api/team/v1/push/forget', { version: 2, uids: [uidOf(65)] });
  });
});
