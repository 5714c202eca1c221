/**
 * A CI job's run output (`codex exec --json`) pushed before the agent's transcript of the same session is indexed:
 * once the transcript is, the laptop lists and counts the session once, from the transcript, and the next push leaves
 * the team server holding it once too.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/codex');
const outputs = join(fixtures, 'exec');
const home = join(fixtures, '0.169.0/codex-home');
const device = { agentdash: '0.1.0', hostname: 'ci-laptop', platform: 'linux' };

pgSuite('agentdash push of CI run outputs, then their transcripts (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let dir: string;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-push-headless-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  });
  afterAll(async () => {
    index?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await team?.close();
  });

  it('the team server holds each session once, from the transcript, as the laptop lists it', async () => {
    await addPerson(team.db.sql, 'runner');
    const { token } = await addDevice(team.db.sql, 'runner', 'laptop');
    const client = new TeamClient({ url: team.url, token });
    const pushNow = () =>
      push({
        index,
        client,
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'metadata', projects: [] },
        device,
      });
    /** The session ids the team server holds for the person, and their tokens. */
    const held = async () => {
      const rows = await team.db.sql<{ session_id: string; tokens: string }[]>`
        select s.session_id, s.tokens from sessions s join people p on p.id = s.person_id where p.name = 'runner'`;
      return {
        ids: rows.map((r) => r.session_id).sort(),
        tokens: rows.reduce((n, r) => n + Number(r.tokens), 0),
      };
    };
    /** What the laptop lists: the same two figures. */
    const listed = () => {
      const sessions = index.listSessions({});
      return {
        ids: sessions.map((s) => s.id).sort(),
        tokens: sessions.reduce((n, { usage: u }) => {
          return n + u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
        }, 0),
      };
    };

    await index.refresh([outputs]);
    const first = await pushNow();
    expect(first).toMatchObject({ superseded: 0 });
    expect(first.stored).toBe(index.listSessions({}).length);
    expect(await held()).toEqual(listed());

    // The transcripts of two of the runs (plan and mcp) come: the laptop's outputs of them yield to them.
    await index.refresh([home]);
    const copies = index.headlessCopies({}).map((s) => s.id);
    expect(copies.length).toBe(2);
    // A push of the outputs' folder alone sends none of the transcripts: nothing is taken back (before, both were:
    // the server held neither the outputs' sessions nor their transcripts').
    const before = await held();
    const partial = await push({
      index,
      client,
      cache: FileCache.load(undefined),
      policy: { defaultTier: 'metadata', projects: [] },
      device,
      filter: { paths: [outputs] },
    });
    expect(partial.superseded).toBe(0);
    expect(await held()).toEqual(before);
    const second = await pushNow();
    // Before: the two sessions held twice on the server, once from each file, their tokens counted twice.
    const after = await held();
    expect(after).toEqual(listed());
    expect(new Set(after.ids).size).toBe(after.ids.length);
    expect(second.superseded).toBe(2);
    for (const id of copies) expect(after.ids).toContain(id);
    // Taken back, not forgotten: the server records none of them (before, each was recorded as the person's
    // forgotten session, so a push of it was refused with advice to unforget, and its id's telemetry dropped).
    expect(await team.db.sql`select uid from forgotten_sessions`).toEqual([]);

    // Nothing is held twice any more: the next push takes nothing back and sends nothing.
    const third = await pushNow();
    expect(third).toMatchObject({ superseded: 0, stored: 0 });
    expect(await held()).toEqual(after);
    // Its requests and bytes are its own (the client served three pushes, as in `push --watch`): a new client's are
    // the same. Before: the client's counts since it was made.
    const fresh = await push({
      index,
      client: new TeamClient({ url: team.url, token }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: 'metadata', projects: [] },
      device,
    });
    expect([third.requests, third.bytesSent]).toEqual([fresh.requests, fresh.bytesSent]);
  });

  it("at summary, a run kept apart under its session's id leaves hashed: its output file's name stays here", async () => {
    await addPerson(team.db.sql, 'ci');
    const { token } = await addDevice(team.db.sql, 'ci', 'laptop');
    // two runs of one session (`codex exec resume`): the second file's session is `<id>@<its file's name>`
    const runs = join(dir, 'runs');
    mkdirSync(runs);
    const shell = join(outputs, '0.169.0-shell.exec.jsonl');
    copyFileSync(shell, join(runs, 'a.exec.jsonl'));
    copyFileSync(shell, join(runs, 'release-acme-merger.exec.jsonl'));
    const own = openIndex({ dbPath: join(dir, 'runs.sqlite') });
    try {
      await own.refresh([runs]);
      const ids = own.listSessions({}).map((s) => s.id);
      expect(ids.filter((id) => id.includes('@release-acme-merger'))).toHaveLength(1);
      const report = await push({
        index: own,
        client: new TeamClient({ url: team.url, token }),
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'summary', projects: [] },
        device,
      });
      expect(report.stored).toBe(2);
      const rows = await team.db.sql<{ session_id: string; calls: string[] }[]>`
        select s.session_id, array(select c.call_id from calls c where c.person_id = s.person_id and c.uid = s.uid)
          as calls
        from sessions s join people p on p.id = s.person_id where p.name = 'ci' order by s.session_id`;
      expect(rows).toHaveLength(2);
      // Before: the second run's id went as it is, the file's name in it (and in its calls' ids that start with it).
      expect(JSON.stringify(rows)).not.toContain('acme');
      const hashed = rows.find((r) => r.session_id.startsWith('h-'));
      const plain = rows.find((r) => r !== hashed);
      expect(hashed?.session_id).toMatch(/^h-[0-9a-f]{32}$/);
      expect(plain?.session_id).toBe(ids.find((id) => !id.includes('@')));
      expect(hashed?.calls.length).toBe(plain?.calls.length);
    } finally {
      own.close();
    }
  });
});
