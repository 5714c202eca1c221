/**
 * The team's usage per person at thirty people, several sharing each project: each person's row is their own usage,
 * and the sums PostgreSQL sends grow with the people and the projects, not with their product.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MetadataSession } from '../src/contract.js';
import { digestOf } from '../src/digest.js';
import { addDevice, addPerson } from '../src/pg/people.js';
import { teamUsageSums } from '../src/pg/usage.js';
import { pgSuite } from './pg-harness.js';
import { startTeam, type TeamFixture } from './team-harness.js';
import { metadataSession } from './wire.js';

const PEOPLE = 30;
const PROJECTS = 6;
/** Projects each person works in (person i: projects i, i+1, i+2 modulo `PROJECTS`): five people share each. */
const PROJECTS_EACH = 3;

/** Person `p`'s session in project `j`: every session of a project starts in the same quarter-hour. */
function session(p: number, j: number): MetadataSession {
  const n = 1000 + p * 10 + j;
  const base = metadataSession(n);
  const startedAt = `2026-03-0${1 + j}T10:00:00.000Z`;
  const ts = Date.parse(startedAt);
  const s = {
    ...base,
    startedAt,
    endedAt: new Date(ts + 60_000).toISOString(),
    projectPath: `/srv/shared/project-${j}`,
    projectDir: `-srv-shared-project-${j}`,
    // person p's own figures: told apart from everyone else's
    responses: base.responses.map((r, i) => ({ ...r, tsMs: ts + i * 1000, input: r.input + p * 7, output: 100 + p })),
    digest: '',
  };
  return { ...s, digest: digestOf(s) };
}

pgSuite('usage per person at thirty people sharing projects (real PostgreSQL, real HTTP)', () => {
  let team: TeamFixture;
  const names = Array.from({ length: PEOPLE }, (_, p) => `dev${String(p).padStart(2, '0')}`);

  beforeAll(async () => {
    team = await startTeam();
    for (const [p, name] of names.entries()) {
      await addPerson(team.db.sql, name);
      const { token } = await addDevice(team.db.sql, name, 'laptop');
      const sessions = Array.from({ length: PROJECTS_EACH }, (_, k) => session(p, (p + k) % PROJECTS));
      const res = await team.pushSessions(sessions, { token });
      expect(res.json.data).toEqual({ stored: PROJECTS_EACH, unchanged: 0 });
    }
  });
  afterAll(async () => {
    await team?.close();
  });

  type Group = { responses: number; inputTokens: number; outputTokens: number; costUsd: number | null };
  type Usage = {
    totals: Group;
    projects: (Group & { project: string })[];
    people?: (Group & { person: string })[];
    blocks: (Group & { start: string })[];
    blocksTotal: number;
    blocksByPerson?: boolean;
  };
  const figures = (g: Group) => [g.responses, g.inputTokens, g.outputTokens, g.costUsd];
  const get = async (path: string) => (await team.request('GET', path)).json as unknown as Usage;

  // from usage_rollup (no filter) and from each session's sums (a model filter)
  it.each(['', '?model=claude', '?model=sonnet-4.5'])(
    "each person's row equals their own totals (%s)",
    async (query) => {
      const usage = await get(`/api/usage${query}`);
      expect(usage.people?.map((p) => p.person).sort()).toEqual(names);
      expect(usage.projects).toHaveLength(PROJECTS);
      for (const person of usage.people ?? []) {
        const p = names.indexOf(person.person);
        // two responses a session: input 1000 + n + 7p then 7p, output 100 + p each
        const input = Array.from({ length: PROJECTS_EACH }, (_, k) => 1000 + 1000 + p * 10 + ((p + k) % PROJECTS))
          .map((first) => first + 14 * p)
          .reduce((a, b) => a + b, 0);
        expect(figures(person).slice(0, 3), person.person).toEqual([
          2 * PROJECTS_EACH,
          input,
          2 * PROJECTS_EACH * (100 + p),
        ]);
        const own = await get(`/api/usage${query}${query === '' ? '?' : '&'}person=${person.person}`);
        expect(figures(person), person.person).toEqual(figures(own.totals));
      }
      const sum = (key: 'responses' | 'inputTokens') => (usage.people ?? []).reduce((a, p) => a + p[key], 0);
      expect([sum('responses'), sum('inputTokens')]).toEqual([usage.totals.responses, usage.totals.inputTokens]);
    },
  );

  it("lists 5-hour blocks one person's at a time: usage limits are each person's own", async () => {
    // every project's sessions start at 10:00 of its own day: one block a day summing ten people's responses before
    const all = await get('/api/usage');
    expect([all.blocks, all.blocksTotal, all.blocksByPerson]).toEqual([[], 0, true]);
    // dev03 works in projects 3, 4 and 5: two responses on each of those days
    const own = await get('/api/usage?person=dev03');
    expect(own.blocks.map((b) => [b.start, b.responses])).toEqual([
      ['2026-03-04T10:00:00.000Z', 2],
      ['2026-03-05T10:00:00.000Z', 2],
      ['2026-03-06T10:00:00.000Z', 2],
    ]);
    expect([own.blocksTotal, own.blocksByPerson]).toEqual([3, undefined]);
  });

  it('sends rows per project quarter-hour and per person, not per person and project', async () => {
    // `sonnet-4.5`: as GitHub Copilot writes the model, found as Anthropic's `claude-sonnet-4-5` (core's rule)
    for (const filter of [{}, { model: 'claude' }, { model: 'sonnet-4.5' }]) {
      const rows = await teamUsageSums(team.db.sql, filter);
      // one model, one band: a row per project (each in one quarter-hour) and a row per person
      expect(rows.length, JSON.stringify(filter)).toBe(PROJECTS + PEOPLE);
    }
  });

  // last: it adds a row the others do not expect
  it("sums a person the server no longer knows once, with the projects, in no person's row", async () => {
    const input = (rows: readonly { readonly input: number }[]) => rows.reduce((a, r) => a + r.input, 0);
    const before = await teamUsageSums(team.db.sql, {});
    // usage kept for a person id no row of `people` has (usage_rollup has no foreign key to it)
    const quarter = Math.floor(Date.parse('2026-03-01T10:00:00Z') / 900_000);
    await team.db.sql`insert into usage_rollup (person_id, agent, project_hash, model, band, quarter, project_path,
        project_dir, n, input, output, cache_creation, cache_creation_1h, cache_read, reasoning)
      values (987654, 'claude', 'orphan', 'claude-sonnet-4-5', 0, ${quarter}, '/srv/orphan', '-srv-orphan',
        1, 5, 5, 0, 0, 0, 0)`;
    const after = await teamUsageSums(team.db.sql, {});
    const projects = (rows: typeof after) => rows.filter((r) => r.person === null);
    // Before: the orphan's row of the per-person set, without a name, was taken for a project row (no agent, no
    // project) and its tokens counted in the totals twice.
    expect(projects(after).every((r) => r.agent !== null)).toBe(true);
    expect(input(projects(after)) - input(projects(before))).toBe(5);
    expect(
      after
        .filter((r) => r.person !== null)
        .map((r) => r.person)
        .sort(),
    ).toEqual(names);
  });
});
