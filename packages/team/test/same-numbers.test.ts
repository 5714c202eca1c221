/**
 * Same numbers: sessions indexed on a laptop, pushed through the real push client, read back from the team API,
 * equal the local server's API route by route (issue 33 §5). The bundled sample home at the full tier; the wild
 * transcripts (../shared/wild) at the metadata tier when present.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { createApp, type SessionDetail, type SessionRow } from '@agentdash/server';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareTier } from '../src/contract.js';
import { addDevice } from '../src/pg/people.js';
import { sessionUid } from '../src/push/hash.js';
import { expectSameUsage } from './close-costs.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES, samplesWithACopy } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const WILD = resolve(here, '../../../../shared/wild/claude-home');
const CODEX = resolve(here, '../../core/test/fixtures/codex/0.171.0/codex-home');
/** Copilot CLI 1.0.64/1.0.68 sessions: output tokens only, their input unrecorded. */
const COPILOT = resolve(here, '../../core/test/fixtures/copilot/wild/entire-agentv-1');

// the samples with a session both lists hide (samples-copy.ts), removed after the suites
const WITH_COPY = samplesWithACopy(join(mkdtempSync(join(tmpdir(), 'agentdash-same-copy-')), 'home'));
afterAll(() => rmSync(dirname(WITH_COPY), { recursive: true, force: true }));

const homes: readonly [string, string, ShareTier][] = [
  ['the bundled samples at the full tier', SAMPLES, 'full'],
  ['the samples with a resumed copy the lists hide, at the full tier', WITH_COPY, 'full'],
  ['the bundled Codex sessions at the full tier', CODEX, 'full'],
  ['the bundled Copilot CLI sessions without input tokens, at the full tier', COPILOT, 'full'],
  ...(existsSync(WILD)
    ? [['../shared/wild at the metadata tier', WILD, 'metadata'] as [string, string, ShareTier]]
    : []),
];
if (!existsSync(WILD)) describe.skip(`same numbers over ../shared/wild (skipped: not present at ${WILD})`, () => {});

/** The figures both servers must agree on, per session. */
const figures = (r: SessionRow) => ({
  agent: r.agent,
  title: r.title,
  startedAt: r.startedAt,
  endedAt: r.endedAt,
  durationMs: r.durationMs,
  messages: r.messages,
  toolCalls: r.toolCalls,
  errors: r.errors,
  expectedErrors: r.expectedErrors,
  versions: r.versions,
  models: r.models,
  costUsd: r.costUsd,
  unpricedModels: r.unpricedModels,
  inputUnrecordedModels: r.inputUnrecordedModels,
  tokens: r.tokens,
  time: r.time,
});

for (const [title, home, tier] of homes) {
  pgSuite(`same numbers on the team server: ${title} (real PostgreSQL, the real push client)`, () => {
    let team: TeamFixture;
    let dir: string;
    let index: AgentIndex;
    let local: ReturnType<typeof createApp>;
    beforeAll(async () => {
      team = await startTeam();
      dir = mkdtempSync(join(tmpdir(), 'agentdash-same-'));
      // the run's index of the home (built once per run); the refresh finds nothing new
      await copyOfIndex([home], join(dir, 'index.sqlite'));
      index = openIndex({ dbPath: join(dir, 'index.sqlite') });
      await index.refresh([home]);
      local = createApp({ index, paths: [], host: '127.0.0.1', port: 4317 });
      const report = await team.pushIndex(index, { tier });
      expect(report.stored).toBe(report.sessions);
    });
    afterAll(async () => {
      index?.close();
      await team?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const localJson = async <T>(path: string): Promise<T> =>
      (await (await local.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as T;
    const teamJson = async <T>(path: string): Promise<T> => (await team.request('GET', path)).json as unknown as T;

    it('the sessions list: every session with the same figures', async () => {
      const mine = await localJson<{ total: number; sessions: SessionRow[]; totals: unknown }>(
        '/api/sessions?limit=1000',
      );
      const theirs = await teamJson<{ total: number; sessions: SessionRow[]; totals: unknown }>(
        '/api/sessions?limit=1000',
      );
      expect(theirs.total).toBe(mine.total);
      expect(theirs.totals).toEqual(mine.totals);
      // Two copies of one session differ only by what they own (wild's ccrider-1 sample and no-summary: one holds the
      // response, the other its copy): cost and tokens keep ties in one order on both sides.
      const key = (r: SessionRow) =>
        JSON.stringify([r.startedAt, r.agent, r.toolCalls, r.messages, r.title, r.costUsd, r.tokens]);
      const sorted = (rows: SessionRow[]) =>
        rows.map(figures).sort((a, b) => (key(a as SessionRow) < key(b as SessionRow) ? -1 : 1));
      expect(sorted(theirs.sessions)).toEqual(sorted(mine.sessions));
    });

    // the list's counts under each filter a user sets, and the facets, computed by the team server over its list
    // columns: every figure as the laptop's
    it("the sessions list's totals under each filter, the hidden empty sessions and the facets", async () => {
      type List = { total: number; totals: unknown; hiddenEmpty?: number; facets: Record<string, string[]> };
      const all = await localJson<List>('/api/sessions?limit=1');
      const [model] = all.facets.models ?? [];
      const [version] = all.facets.versions ?? [];
      const project = all.facets.projects?.[0]?.split('/').at(-1);
      // a project's path, letter for letter and in other letters' case (a path filter is exact on both servers)
      const { sessions: listed } = await localJson<{ sessions: SessionRow[] }>('/api/sessions?limit=50');
      const path = listed.find((s) => s.projectPath !== null && /[a-z]/.test(s.projectPath))?.projectPath ?? '';
      expect(path).not.toBe('');
      const day = (
        await localJson<{ sessions: SessionRow[] }>('/api/sessions?limit=1&sort=startedAt&dir=asc')
      ).sessions[0]?.startedAt?.slice(0, 10);
      const filters = [
        '',
        'hideEmpty=1',
        'agent=claude',
        'hasErrors=1',
        `model=${model}`,
        `version=${version}`,
        `project=${project}`,
        `project=${project?.toUpperCase()}`,
        `project=${encodeURIComponent(path)}`,
        `project=${encodeURIComponent(path.toUpperCase())}`,
        // the name of a folder that holds every project's sessions (Codex's): a project of none of them
        'project=sessions',
        `since=${day}`,
        `until=${day}`,
        'hideEmpty=1&hasErrors=1&sort=messages',
      ];
      let sessions = 0;
      for (const filter of filters) {
        const mine = await localJson<List>(`/api/sessions?limit=5&${filter}`);
        const theirs = await teamJson<List>(`/api/sessions?limit=5&${filter}`);
        // a pushed session outside any project folder names its folder, not the laptop's path to it
        const folders = (projects: readonly string[] = []) => projects.map((p) => p.split('/').at(-1)).sort();
        const facets = ({ projects = [], agents, ...rest }: List['facets']) => ({
          ...rest,
          projects: folders(projects),
          // each agent's own models and projects too
          agents: (agents as unknown as { projects?: string[] }[]).map((a) => ({
            ...a,
            projects: folders(a.projects),
          })),
        });
        const figures = (l: List) => [filter, l.total, l.totals, l.hiddenEmpty, facets(l.facets)];
        expect(figures(theirs)).toEqual(figures(mine));
        sessions += mine.total;
      }
      expect(all.facets.models?.length).toBeGreaterThan(0);
      expect(all.facets.projects?.length).toBeGreaterThan(0);
      expect(sessions).toBeGreaterThan(all.total);
      // the copy's session is one the lists hide: its messages are copies, with no title or call of their own
      if (home === WITH_COPY) expect((await localJson<List>('/api/sessions?hideEmpty=1')).hiddenEmpty).toBe(1);
    });

    // a response a resume or fork copied counts once, for the session that started first, on both servers
    it('usage: totals, days, models, agents, projects and blocks', async () => {
      type Usage = {
        totals: unknown;
        days: unknown;
        models: unknown;
        agents: unknown;
        projects: unknown;
        blocks: unknown;
      };
      expectSameUsage(await localJson<Usage>('/api/usage?tz=UTC'), await teamJson<Usage>('/api/usage?tz=UTC'));
      // one person pushed it all: their row is the team's totals, figure for figure and model for model
      const team = await teamJson<Usage & { totals: object; people?: object[] }>('/api/usage?tz=UTC');
      const { cacheHitRatio: _ratio, ...totals } = team.totals as { cacheHitRatio: number };
      expect(team.people).toEqual([{ person: 'ann', ...totals }]);
    });

    // "Show more" asks each text of a call cut at `chars` (a 40 MB output whole froze the tab): the team's host too
    it.skipIf(home !== SAMPLES)("a call's texts cut at `chars`, and whole without it", async () => {
      type Call = { id: string; truncated: boolean; result: { content: unknown } | null };
      type Events = { events: { kind: string; items?: Call[] }[] };
      const { sessions } = await teamJson<{ sessions: SessionRow[] }>('/api/sessions?limit=1000');
      let cut: [string, Call] | undefined;
      for (const row of sessions) {
        const { events } = await teamJson<Events>(`/api/sessions/${row.id}/events?limit=500`);
        const call = events.flatMap((e) => e.items ?? []).find((i) => i.truncated);
        if (call) cut = [row.id, call];
        if (cut) break;
      }
      expect(cut).toBeDefined();
      const [ref, call] = cut!;
      const at = await teamJson<Call>(`/api/sessions/${ref}/calls/${call.id}?chars=13000`);
      const whole = await teamJson<Call>(`/api/sessions/${ref}/calls/${call.id}`);
      // its longest text (the output may be in toolUseResult, not content)
      const length = (c: Call) =>
        Math.max(...(JSON.stringify(c).match(/"(?:[^"\\]|\\.)*"/g) ?? []).map((t) => JSON.parse(t).length));
      expect([at.truncated, length(at), whole.truncated, length(whole) > 13_000]).toEqual([true, 13_000, false, true]);
    });

    it("a tool's calls by its former name: the whole tool, as the laptop gives them", async () => {
      type Calls = { calls: { id: string; name: string }[] };
      const ids = (r: Calls) => r.calls.map((call) => call.id).sort();
      for (const tool of ['Task', 'Agent', 'BashOutput', 'Bash']) {
        const query = `/api/calls?tool=${tool}&limit=2000`;
        expect(ids(await teamJson<Calls>(query)), tool).toEqual(ids(await localJson<Calls>(query)));
      }
      const [task, agent] = [
        await localJson<Calls>('/api/calls?tool=Task&limit=2000'),
        await localJson<Calls>('/api/calls?tool=Agent&limit=2000'),
      ];
      if (task.calls.length > 0) expect(ids(task)).toEqual(ids(agent));
    });

    it('stats: calls, errors, per-tool figures and the days of a time zone', async () => {
      type Stats = {
        totals: { calls: number };
        tools: unknown;
        categories: unknown;
        granularity: string;
        days: unknown[];
      };
      const mine = await localJson<Stats>('/api/stats');
      const theirs = await teamJson<Stats>('/api/stats');
      expect(theirs.totals).toEqual(mine.totals);
      expect(theirs.tools).toEqual(mine.tools);
      expect(theirs.categories).toEqual(mine.categories);
      // the bundled Copilot sessions made no tool call (no day has calls); every other home did
      const called = home !== COPILOT;
      expect(mine.totals.calls > 0).toBe(called);
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Kathmandu']) {
        const query = `/api/stats?tz=${encodeURIComponent(tz)}`;
        const [local, team] = [await localJson<Stats>(query), await teamJson<Stats>(query)];
        expect(team.granularity, tz).toBe(local.granularity);
        expect(team.days, tz).toEqual(local.days);
        expect(local.days.length > 0, tz).toBe(called);
      }
    });
  });
}

const CORPUS = resolve(here, '../../../../shared/corpus');
const FIXTURES = resolve(here, '../../core/test/fixtures');
/** A bundled session copied without its main file: its subagents are its timeline, listed once in its header. */
const MAINLESS = mkdtempSync(join(tmpdir(), 'agentdash-mainless-'));
const MAINLESS_ID = '410c10d6-fdc3-4c91-bc4f-74b883942e01';
cpSync(
  join(SAMPLES, 'projects/-home-user-proj-subagents', MAINLESS_ID),
  join(MAINLESS, 'projects/-home-user-proj-subagents', MAINLESS_ID),
  { recursive: true },
);
// made as the file loads: removed whether or not its suite runs (a filtered or skipped run too)
afterAll(() => rmSync(MAINLESS, { recursive: true, force: true }));
/** Three devices of one person, each its own laptop index: two corpus homes and the Codex and Gemini fixtures. */
type Device = { name: string; tier: ShareTier; homes: string[] };
const devices: readonly Device[] = (
  [
    { name: 'laptop', tier: 'full', homes: [join(CORPUS, '1.0.128/claude-home')] },
    { name: 'desktop', tier: 'metadata', homes: [join(CORPUS, '2.1.330/claude-home')] },
    {
      name: 'ci',
      tier: 'full',
      homes: [
        join(FIXTURES, 'codex/0.98.0/codex-home'),
        join(FIXTURES, 'codex/0.169.0/codex-home'),
        join(FIXTURES, 'gemini/0.61.0/.gemini'),
        join(FIXTURES, 'gemini/0.20.2/.gemini'),
        MAINLESS,
      ],
    },
  ] satisfies Device[]
).map((d) => ({ ...d, homes: d.homes.filter((h) => existsSync(h)) }));
for (const d of devices.filter((d) => d.homes.length === 0)) {
  describe.skip(`same numbers from device ${d.name} (skipped: its homes are not present)`, () => {});
}
/** Words and phrases the transcripts hold, none of them a secret the push redacts. */
const QUERIES = ['error', 'test', 'function', 'file*', '"the file"', 'package json', 'npm', 'README', 'fix*'];

pgSuite('same numbers from three devices: corpus homes, Codex and Gemini (header, list, search)', () => {
  let team: TeamFixture;
  let dir: string;
  const locals = new Map<
    string,
    { app: ReturnType<typeof createApp>; index: AgentIndex; uidOf: Map<string, string> }
  >();
  beforeAll(async () => {
    team = await startTeam();
    dir = mkdtempSync(join(tmpdir(), 'agentdash-same3-'));
    const [{ salt } = { salt: '' }] = await team.db.sql<{ salt: string }[]>`select salt from people where name = 'ann'`;
    for (const d of devices.filter((d) => d.homes.length > 0)) {
      const token = d.name === 'laptop' ? team.token : (await addDevice(team.db.sql, 'ann', d.name)).token;
      await copyOfIndex(d.homes, join(dir, `${d.name}.sqlite`));
      const index = openIndex({ dbPath: join(dir, `${d.name}.sqlite`) });
      await index.refresh(d.homes);
      const report = await team.pushIndex(index, { token, tier: d.tier, hostname: d.name });
      expect(report.stored).toBe(report.sessions);
      // by id, and by reference (a copy's source is named by its reference)
      const uidOf = new Map(
        index.listSessions().flatMap((s) => {
          const uid = sessionUid(salt, s.agent, s.key);
          return [
            [s.id, uid],
            [s.ref, uid],
          ] as const;
        }),
      );
      locals.set(d.name, { app: createApp({ index, paths: [], host: '127.0.0.1', port: 4317 }), index, uidOf });
    }
  });
  afterAll(async () => {
    for (const l of locals.values()) l.index.close();
    await team?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const localJson = async <T>(device: string, path: string): Promise<T> =>
    (await (await locals.get(device)!.app.request(path, { headers: { host: '127.0.0.1:4317' } })).json()) as T;
  const teamJson = async <T>(path: string): Promise<T> => (await team.request('GET', path)).json as unknown as T;

  for (const d of devices.filter((d) => d.homes.length > 0)) {
    it(`${d.name} (${d.tier}): every session's row and header equal the laptop's`, async () => {
      const { uidOf } = locals.get(d.name)!;
      const mine = await localJson<{ sessions: SessionRow[] }>(d.name, '/api/sessions?limit=1000');
      const theirs = await teamJson<{ total: number; sessions: SessionRow[] }>(
        `/api/sessions?limit=1000&device=ann/${d.name}`,
      );
      expect(theirs.total).toBe(mine.sessions.length);
      expect(theirs.total).toBeGreaterThan(0);
      const teamRows = new Map(theirs.sessions.map((r) => [r.id, r]));
      type Detail = SessionDetail & Record<string, unknown>;
      const header = (h: Detail) => ({
        session: figures(h.session),
        gitBranch: h.gitBranch,
        totalEvents: h.totalEvents,
        mainFile: h.mainFile,
        subagents: h.subagents.length,
        usageByModel: h.usageByModel,
        counts: h.counts,
        toolCounts: h.toolCounts,
        // what a resume copied, its sources named by uid (the laptop's by reference)
        copiedFrom: h.copiedFrom.map((c) => ({ ...c, ref: uidOf.get(c.ref) ?? c.ref })),
      });
      let copies = 0;
      const mainless: string[] = [];
      for (const row of mine.sessions) {
        const uid = uidOf.get(row.id)!;
        expect([row.id, figures(teamRows.get(uid)!)]).toEqual([row.id, figures(row)]);
        const local = await localJson<Detail>(d.name, `/api/sessions/${encodeURIComponent(row.id)}`);
        const remote = await teamJson<Detail>(`/api/sessions/${uid}`);
        expect([row.id, header(remote)]).toEqual([row.id, header(local)]);
        copies += local.copiedFrom.length;
        if (!local.mainFile) mainless.push(row.id);
      }
      // the corpus homes hold resumed sessions (continuation, fork): their copies are told on both servers
      if (d.name !== 'ci') expect(copies).toBeGreaterThan(0);
      // and a session without its main file says so on both (the team server listed its subagents again)
      expect(mainless).toEqual(d.name === 'ci' ? [MAINLESS_ID] : []);
    });
  }

  for (const d of devices.filter((d) => d.homes.length > 0)) {
    it(`${d.name}: sorted by time, the team's list is in the laptop's order (unknown times last)`, async () => {
      const path = '/api/sessions?sort=durationMs&dir=desc&limit=1000';
      const times = (l: { sessions: SessionRow[] }) => l.sessions.map((s) => s.durationMs ?? null);
      const mine = await localJson<{ sessions: SessionRow[] }>(d.name, path);
      const theirs = await teamJson<{ sessions: SessionRow[] }>(`${path}&device=ann/${d.name}`);
      expect(times(theirs)).toEqual(times(mine));
    });
  }

  for (const d of devices.filter((d) => d.homes.length > 0 && d.tier === 'full')) {
    it(`${d.name} (full): search finds the sessions the laptop's search finds`, async () => {
      const { uidOf } = locals.get(d.name)!;
      let found = 0;
      for (const q of QUERIES) {
        const path = `/api/sessions?q=${encodeURIComponent(q)}&limit=1000`;
        const mine = await localJson<{ sessions: SessionRow[] }>(d.name, path);
        const theirs = await teamJson<{ sessions: SessionRow[] }>(`${path}&device=ann/${d.name}`);
        const expected = mine.sessions.map((r) => uidOf.get(r.id)).sort();
        expect([q, theirs.sessions.map((r) => r.id).sort()]).toEqual([q, expected]);
        found += expected.length;
      }
      expect(found).toBeGreaterThan(0);
    });
  }
});
