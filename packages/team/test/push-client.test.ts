/**
 * The laptop's push against a real team server on a real PostgreSQL: what each tier stores (planted secrets and
 * markers searched in every table), an unchanged re-push (no row touched, almost nothing sent), a push killed at
 * every request and started again (ends equal to an uninterrupted one), and a tier lowered later.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { TeamClient } from '../src/push/client.js';
import { FileCache } from '../src/push/file-cache.js';
import { type PushReport, push } from '../src/push/push.js';
import { pgSuite } from './pg-harness.js';
import { MARKERS, type PlantedHome, type PlantedIndex, plantedIndex } from './planted-home.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { promptsTranscript } from './wire.js';

const device = { agentdash: '0.1.0', hostname: 'laptop', platform: 'linux' };

pgSuite('agentdash push to a team server (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  let laptop: PlantedIndex;
  let dir: string;
  let planted: PlantedHome;
  let index: AgentIndex;

  beforeAll(async () => {
    team = await startTeam();
    laptop = await plantedIndex('agentdash-push-');
    ({ dir, planted, index } = laptop);
  });
  afterAll(async () => {
    laptop?.close();
    await team?.close();
  });

  const pushAs = (tier: ShareTier, token = team.token, fetcher?: typeof fetch): Promise<PushReport> =>
    push({
      index,
      client: new TeamClient({ url: team.url, token, ...(fetcher ? { fetch: fetcher, retryMs: 0 } : {}) }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: tier, projects: [] },
      device,
    });

  /** Every table's rows as text, with the chunks' transcripts decompressed (what a leak search must read). */
  async function everything(): Promise<string> {
    const chunks = await team.db.sql<{ bytes: Buffer }[]>`select bytes from chunks`;
    return `${await team.dump()}\n${chunks.map((c) => gunzipSync(c.bytes).toString('utf8')).join('')}`;
  }
  const noSecrets = (text: string) => {
    for (const secret of planted.secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, 12));
    }
  };

  it('summary stores numbers only: no marker, path, title or secret in any table', async () => {
    const report = await pushAs('summary');
    expect(report).toMatchObject({ sessions: 1, sent: 1, stored: 1, unchanged: 0, tiers: { summary: 1 } });
    const all = await everything();
    noSecrets(all);
    for (const marker of Object.values(MARKERS)) expect(all).not.toContain(marker);
    expect(all).not.toContain('/home/dev');
    const [row] = await team.db.sql`select tier, title, project_path from sessions`;
    expect(row).toMatchObject({ tier: 'summary', title: null, project_path: null });
  });

  it('an unchanged re-push touches no row and sends under 1 KB', async () => {
    const before = await team.dump();
    const report = await pushAs('summary');
    expect(report).toMatchObject({ sent: 0, stored: 0, unchanged: 1 });
    expect(report.bytesSent).toBeLessThan(1024);
    expect(await team.dump()).toBe(before);
  });

  it('metadata adds titles, project and call summaries, redacted; the transcript stays home', async () => {
    expect(await pushAs('metadata')).toMatchObject({ stored: 1 });
    const all = await everything();
    noSecrets(all);
    for (const m of [MARKERS.title, MARKERS.project, MARKERS.branch]) expect(all).toContain(m);
    for (const m of [MARKERS.prompt, MARKERS.reply, MARKERS.thinking]) expect(all).not.toContain(m);
  });

  it('full adds the transcript, redacted, in chunks the server keeps once', async () => {
    const report = await pushAs('full');
    expect(report).toMatchObject({ stored: 1, chunks: 1, chunksUploaded: 1 });
    const all = await everything();
    noSecrets(all);
    for (const m of [MARKERS.prompt, MARKERS.reply, MARKERS.thinking, MARKERS.output]) expect(all).toContain(m);
    const again = await pushAs('full');
    expect(again).toMatchObject({ sent: 0, unchanged: 1, chunksUploaded: 0 });
  });

  it('a tier lowered later leaves the server with the lower tier only', async () => {
    expect(await pushAs('summary')).toMatchObject({ stored: 1 });
    const all = await everything();
    for (const m of [MARKERS.title, MARKERS.prompt, MARKERS.project]) expect(all).not.toContain(m);
    expect(await team.db.sql`select sha256 from chunks`).toHaveLength(0);
  });

  it('a push killed at any request and started again ends equal to an uninterrupted one', async () => {
    // a second device of another person, pushing the full tier from nothing
    const reference = await freshDevice('ref');
    await pushAs('full', reference.token);
    const expected = await stateOf(reference.person);
    // each run starts from a server without the transcript's chunk (chunks are shared by content), so that the
    // upload is one of the requests a run can die at
    const clear = async () => {
      await team.db.sql`delete from sessions`;
      await team.db.sql`delete from chunks`;
    };
    await clear();
    let requests = 0;
    const counter = await freshDevice('count');
    await pushAs('full', counter.token, async (input, init) => {
      requests += 1;
      return fetch(input, init);
    });
    // killed before a request reaches the server, or after the server did its work but before the answer came
    for (const when of ['before', 'after'] as const) {
      for (let killAt = 1; killAt <= requests; killAt += 1) {
        await clear();
        const d = await freshDevice(`kill-${when}-${killAt}`);
        let n = 0;
        // from then on every request dies (a killed push sends nothing more, however often it tries again)
        const dying: typeof fetch = async (input, init) => {
          n += 1;
          if (n < killAt) return fetch(input, init);
          if (when === 'after' && n === killAt) await (await fetch(input, init)).text();
          throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        };
        await expect(pushAs('full', d.token, dying)).rejects.toThrow(/cannot reach the team server/);
        await pushAs('full', d.token);
        expect(await stateOf(d.person)).toEqual(expected);
      }
    }
    // whoami, manifest, chunks/check, the chunk, the sessions
    expect(requests).toBe(5);
  });

  it('sends its chunks one PUT each to a team server without the batch route', async () => {
    await team.db.sql`delete from sessions`;
    await team.db.sql`delete from chunks`;
    const d = await freshDevice('older');
    const asked: string[] = [];
    // a team server of before `POST /push/chunks`: that route is not found
    const older: typeof fetch = async (input, init) => {
      const path = new URL(String(input)).pathname.replace(/^.*\/api\/team\/v1/, '');
      asked.push(`${init?.method ?? 'GET'} ${path.replace(/[0-9a-f]{64}$/, ':sha256')}`);
      if (init?.method === 'POST' && path === '/push/chunks') {
        return new Response(JSON.stringify({ success: false, error: 'not found' }), { status: 404 });
      }
      return fetch(input, init);
    };
    const report = await pushAs('full', d.token, older);
    expect(report).toMatchObject({ stored: 1, chunks: 1, chunksUploaded: 1 });
    expect(asked.filter((a) => a.includes('/push/chunks') && !a.endsWith('/check'))).toEqual([
      'POST /push/chunks',
      'PUT /push/chunks/:sha256',
    ]);
    expect((await team.db.sql`select count(*)::int as n from chunks`)[0]?.n).toBe(1);
  });

  it("builds each session's payload once, however many stages it passes", async () => {
    const d = await freshDevice('once');
    const built: string[] = [];
    // the real index, its header read counted: building a session's payload reads it once
    const counted = new Proxy(index, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop !== 'sessionHeader') return typeof value === 'function' ? value.bind(target) : value;
        return (ref: string) => {
          built.push(ref);
          return target.sessionHeader(ref);
        };
      },
    });
    const report = await push({
      index: counted,
      client: new TeamClient({ url: team.url, token: d.token }),
      cache: FileCache.load(undefined),
      policy: { defaultTier: 'full', projects: [] },
      device,
    });
    expect(report).toMatchObject({ sessions: 1, sent: 1, stored: 1 });
    expect(built).toHaveLength(1);
  });

  it('sends a session the full tier cannot carry (one line past a chunk) at metadata, and says why', async () => {
    const d = await freshDevice('lowered');
    const home = join(dir, 'lowered');
    const folder = join(home, 'projects', '-home-dev-big');
    mkdirSync(folder, { recursive: true });
    // 6 MB of random base64 in one prompt: its gzip is past the 4 MiB a chunk may be
    const line = randomBytes(4_500_000).toString('base64');
    writeFileSync(
      join(folder, '5ec7e75a-0000-4000-8000-000000000071.jsonl'),
      promptsTranscript(71, [line, 'and then']),
    );
    writeFileSync(join(folder, '5ec7e75a-0000-4000-8000-000000000072.jsonl'), promptsTranscript(72, ['small one']));
    const own = openIndex({ dbPath: join(dir, 'lowered.sqlite') });
    try {
      await own.refresh([home]);
      const report = await push({
        index: own,
        client: new TeamClient({ url: team.url, token: d.token }),
        cache: FileCache.load(undefined),
        policy: { defaultTier: 'full', projects: [] },
        device,
      });
      expect(report).toMatchObject({
        sessions: 2,
        stored: 2,
        skipped: [],
        tiers: { summary: 0, metadata: 1, full: 1 },
      });
      expect(report.lowered).toEqual([
        {
          session: '5ec7e75a-0000-4000-8000-000000000071',
          reason: expect.stringMatching(
            /: a line of 6000\d{3} bytes compresses to \d+, more than a transcript chunk may hold$/,
          ),
        },
      ]);
      const tiers = await team.db.sql<{ session_id: string; tier: string }[]>`
        select s.session_id, s.tier from sessions s join people p on p.id = s.person_id
        where p.name = 'lowered' order by s.session_id`;
      expect(tiers.map((t) => [t.session_id, t.tier])).toEqual([
        ['5ec7e75a-0000-4000-8000-000000000071', 'metadata'],
        ['5ec7e75a-0000-4000-8000-000000000072', 'full'],
      ]);
      // a chunk cache an earlier version wrote names the big file's chunks (one the server never took): the file is
      // read again to send them, found too large, and the session lowered then
      const big = join(folder, '5ec7e75a-0000-4000-8000-000000000071.jsonl');
      const stat = statSync(big);
      const cachePath = join(dir, 'lowered-chunks.json');
      const stale = { bytes: stat.size, chunks: ['f'.repeat(64)], size: stat.size, mtimeMs: stat.mtimeMs };
      writeFileSync(cachePath, JSON.stringify({ format: 1, files: { [big]: stale } }));
      const d2 = await freshDevice('lowered-cached');
      const again = await push({
        index: own,
        client: new TeamClient({ url: team.url, token: d2.token }),
        cache: FileCache.load(cachePath),
        policy: { defaultTier: 'full', projects: [] },
        device,
      });
      expect(again).toMatchObject({ stored: 2, tiers: { summary: 0, metadata: 1, full: 1 } });
      expect(again.lowered.map((l) => l.session)).toEqual(['5ec7e75a-0000-4000-8000-000000000071']);
    } finally {
      own.close();
    }
  });

  it("metadata tells each subagent by its call's summary, never its prompt; full adds the prompt", async () => {
    // the samples' session of four subagents, each prompt marked (in the call that gave it and in its transcript)
    const sample = fileURLToPath(
      new URL('../../cli/samples/claude-home/projects/-home-user-proj-subagents/', import.meta.url),
    );
    const home = join(dir, 'subagents');
    const folder = join(home, 'projects', '-home-user-proj-subagents');
    const id = '410c10d6-fdc3-4c91-bc4f-74b883942e01';
    const prompts = [
      'Sleep briefly and report.',
      'Run a command and read data.txt, then report.',
      'Read a missing file and report.',
      'Echo a word and report.',
    ];
    const mark = (text: string) => prompts.reduce((t, p) => t.replaceAll(p, `SUBPROMPT-91e0 ${p}`), text);
    mkdirSync(join(folder, id, 'subagents'), { recursive: true });
    writeFileSync(join(folder, `${id}.jsonl`), mark(readFileSync(join(sample, `${id}.jsonl`), 'utf8')));
    for (const f of readdirSync(join(sample, id, 'subagents'))) {
      writeFileSync(join(folder, id, 'subagents', f), mark(readFileSync(join(sample, id, 'subagents', f), 'utf8')));
    }
    const own = openIndex({ dbPath: join(dir, 'subagents.sqlite') });
    try {
      await own.refresh([home]);
      expect(JSON.stringify(own.sessionHeader(id)?.subagents)).toContain('SUBPROMPT-91e0');
      const d = await freshDevice('subagents');
      const pushAt = (tier: ShareTier) =>
        push({
          index: own,
          client: new TeamClient({ url: team.url, token: d.token }),
          cache: FileCache.load(undefined),
          policy: { defaultTier: tier, projects: [] },
          device,
        });
      const told = async () =>
        (
          await team.db.sql<{ s: { description: string | null; prompt?: string | null }[] }[]>`
            select s.body->'header'->'subagents' as s from sessions s join people p on p.id = s.person_id
            where p.name = 'subagents'`
        )[0]?.s ?? [];
      expect(await pushAt('metadata')).toMatchObject({ stored: 1 });
      const everywhere = await team.dump();
      expect(everywhere).not.toContain('SUBPROMPT-91e0');
      const meta = await told();
      expect(meta.length).toBeGreaterThanOrEqual(4);
      // each told by the one-line summary its call carries at this tier, which is in the calls table too
      const summaries = await team.db.sql<
        { summary: string }[]
      >`select summary from calls where tool in ('Task', 'Agent')`;
      for (const sub of meta) {
        expect(sub).not.toHaveProperty('prompt');
        expect(summaries.map((c) => c.summary)).toContain(sub.description);
      }
      expect(await pushAt('full')).toMatchObject({ stored: 1 });
      expect((await told()).map((sub) => sub.prompt)).toEqual(
        expect.arrayContaining(prompts.map((p) => `SUBPROMPT-91e0 ${p}`)),
      );
    } finally {
      own.close();
    }
  });

  async function freshDevice(name: string): Promise<{ person: string; token: string }> {
    await addPerson(team.db.sql, name);
    const { token } = await addDevice(team.db.sql, name, 'laptop');
    return { person: name, token };
  }

  /** A person's sessions, calls, responses and files as values, without what differs by person or by time. */
  async function stateOf(person: string): Promise<unknown> {
    const sql = team.db.sql;
    const [p] = await sql<{ id: string }[]>`select id from people where name = ${person}`;
    const id = p?.id ?? null;
    const strip = (rows: readonly Record<string, unknown>[]) =>
      rows.map(({ person_id: _p, device_id: _d, pushed_at: _t, uid: _u, ...rest }) => rest);
    return {
      sessions: strip(await sql`select * from sessions where person_id = ${id}`).map(
        ({ digest: _digest, project_hash: _hash, body, ...rest }) => {
          const { digest: _d, projectHash: _h, uid: _u, ...kept } = body as Record<string, unknown>;
          return { ...rest, body: kept };
        },
      ),
      calls: strip(await sql`select * from calls where person_id = ${id} order by seq`),
      // each response's key is a hash with its person's salt, as the project's is
      responses: strip(await sql`select * from responses where person_id = ${id} order by seq`).map(
        ({ response_key: _key, ...rest }) => rest,
      ),
      files: strip(await sql`select * from files where person_id = ${id} order by seq`),
    };
  }
});
