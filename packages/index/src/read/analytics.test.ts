import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentBlocks, prompt, type RecordBase, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentIndex,
  type AnalyticsFilter,
  type CallAnalytics,
  type CallFilter,
  type CallRow,
  openIndex,
} from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BOUNDS = [100, 1_000, 5_000, 30_000, 120_000];

let dir: string;
let dbPath: string;
let index: AgentIndex;
/** A small hand-made home whose aggregates are written out below. */
let known: string;
/** A copy of the sample projects without their subagent files, under another root. */
let copy: string;

/**
 * One session in project `/home/user/known`: four calls over two UTC days, one without a timestamp.
 * - day 1 10:00:00 Bash, result after 50 ms, `Exit code 1` (an error)
 * - day 1 10:30:00 Read, result after 2 s, ok
 * - day 2 09:00:00 Bash, result after 3 min, the user rejected it (an expected error)
 * - (no timestamp) Grep, no result
 */
function writeKnownHome(root: string): void {
  const sessionId = '99999999-2222-4333-8444-555555555555';
  const at = (iso: string, uuid: string, parentUuid: string | null): RecordBase => ({
    sessionId,
    uuid,
    parentUuid,
    timestamp: iso,
    cwd: '/home/user/known',
  });
  const untimed = (line: string): string => {
    const record = JSON.parse(line) as Record<string, unknown>;
    delete record.timestamp;
    return JSON.stringify(record);
  };
  writeLines(join(root, 'projects', '-home-user-known', `${sessionId}.jsonl`), [
    prompt(at('2026-02-01T09:59:00.000Z', 'u1', null), 'Go.'),
    toolUse(at('2026-02-01T10:00:00.000Z', 'a1', 'u1'), 'm1', 'toolu_k1', 'Bash', { command: 'npm test' }),
    toolResult(at('2026-02-01T10:00:00.050Z', 'r1', 'a1'), 'toolu_k1', 'Exit code 1\nfailed', true),
    toolUse(at('2026-02-01T10:30:00.000Z', 'a2', 'r1'), 'm2', 'toolu_k2', 'Read', { file_path: '/x/a.ts' }),
    toolResult(at('2026-02-01T10:30:02.000Z', 'r2', 'a2'), 'toolu_k2', '1\tconst a = 1;', false),
    toolUse(at('2026-02-02T09:00:00.000Z', 'a3', 'r2'), 'm3', 'toolu_k3', 'Bash', { command: 'rm -rf x' }),
    toolResult(
      at('2026-02-02T09:03:00.000Z', 'r3', 'a3'),
      'toolu_k3',
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      true,
    ),
    untimed(toolUse(at('2026-02-02T09:04:00.000Z', 'a4', 'r3'), 'm4', 'toolu_k4', 'Grep', { pattern: 'x' })),
  ]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-analytics-'));
  dbPath = join(dir, 'index.sqlite');
  known = join(dir, 'known');
  writeKnownHome(known);
  copy = join(dir, 'copy');
  cpSync(join(samples, 'projects'), join(copy, 'projects'), {
    recursive: true,
    filter: (source) => basename(source) !== 'subagents' && !basename(source).startsWith('agent-'),
  });
  index = openIndex({ dbPath });
  await index.refresh([samples, known, copy]);
});

afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Counts {
  calls: number;
  errors: number;
  expectedErrors: number;
}

/** Unique tool_use ids in the transcript files under a folder, read with plain JSON.parse. */
function toolUseIds(folder: string): Set<string> {
  const ids = new Set<string>();
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    for (const { recordType, block } of contentBlocks(readFileSync(join(entry.parentPath, entry.name), 'utf8'))) {
      if (recordType === 'assistant' && block.type === 'tool_use' && block.id) ids.add(block.id);
    }
  }
  return ids;
}

/** The same aggregates, counted one `calls()` row at a time (no SQL grouping), in a canonical order. */
function countRows(rows: readonly CallRow[], bucketMs: number, bounds: readonly number[], offsetMs = 0) {
  const projectOf = new Map(index.listSessions().map((s) => [s.key, s.projectPath ?? s.projectDir]));
  const bin = (ms: number) => {
    const at = bounds.findIndex((bound) => ms < bound);
    return at === -1 ? bounds.length : at;
  };
  const add = (into: Counts, r: CallRow) => {
    into.calls += 1;
    if (r.status === 'error') into.errors += 1;
    if (r.status === 'error' && r.severity === 'expected') into.expectedErrors += 1;
  };
  const zero = (): Counts => ({ calls: 0, errors: 0, expectedErrors: 0 });
  const totals = zero();
  const buckets = new Map<number | null, Counts>();
  const projects = new Map<string, Counts & { ids: Set<string> }>();
  const tools = new Map<string, Counts & { durations: number[] }>();
  const durations = new Array<number>(bounds.length + 1).fill(0);
  const categories = new Map<string, number>();
  for (const r of rows) {
    add(totals, r);
    const start =
      r.timestamp === undefined
        ? null
        : Math.floor((Date.parse(r.timestamp) - offsetMs) / bucketMs) * bucketMs + offsetMs;
    const b = buckets.get(start) ?? zero();
    add(b, r);
    buckets.set(start, b);
    const key = index.getSession(r.sessionRef)?.key ?? '?';
    const name = projectOf.get(key) ?? '?';
    const p = projects.get(name) ?? { ...zero(), ids: new Set<string>() };
    add(p, r);
    p.ids.add(key);
    projects.set(name, p);
    const t = tools.get(r.canonicalTool) ?? { ...zero(), durations: new Array<number>(bounds.length + 1).fill(0) };
    add(t, r);
    if (r.durationMs !== undefined) {
      const i = bin(r.durationMs);
      t.durations[i] = (t.durations[i] ?? 0) + 1;
      durations[i] = (durations[i] ?? 0) + 1;
    }
    tools.set(r.canonicalTool, t);
    if (r.status === 'error') {
      const key = `${r.category ?? 'other'}|${r.severity ?? 'error'}`;
      categories.set(key, (categories.get(key) ?? 0) + 1);
    }
  }
  const stamps = rows.flatMap((r) => (r.timestamp === undefined ? [] : [Date.parse(r.timestamp)]));
  return {
    ...totals,
    firstMs: stamps.length > 0 ? Math.min(...stamps) : null,
    lastMs: stamps.length > 0 ? Math.max(...stamps) : null,
    buckets: [...buckets]
      .map(([startMs, c]) => ({ startMs, ...c }))
      .sort((a, b) => (a.startMs ?? Number.POSITIVE_INFINITY) - (b.startMs ?? Number.POSITIVE_INFINITY)),
    projects: [...projects]
      .map(([project, { ids, ...c }]) => ({ project, sessions: ids.size, ...c }))
      .sort((a, b) => a.project.localeCompare(b.project)),
    tools: [...tools].map(([tool, c]) => ({ tool, ...c })).sort((a, b) => a.tool.localeCompare(b.tool)),
    durations,
    categories: [...categories]
      .map(([key, count]) => {
        const [category, severity] = key.split('|');
        return { category, severity, count };
      })
      .sort((a, b) => `${a.category}|${a.severity}`.localeCompare(`${b.category}|${b.severity}`)),
  };
}

/** The analytics in the order `countRows` uses, after checking that each ranking puts the most calls first. */
function canonical(a: CallAnalytics) {
  for (const list of [a.projects.map((p) => p.calls), a.tools.map((t) => t.calls), a.categories.map((c) => c.count)]) {
    expect(list).toEqual([...list].sort((x, y) => y - x));
  }
  return {
    calls: a.calls,
    errors: a.errors,
    expectedErrors: a.expectedErrors,
    firstMs: a.firstMs,
    lastMs: a.lastMs,
    buckets: a.buckets,
    projects: [...a.projects].sort((x, y) => x.project.localeCompare(y.project)),
    tools: [...a.tools].sort((x, y) => x.tool.localeCompare(y.tool)),
    durations: a.durations,
    categories: [...a.categories].sort((x, y) =>
      `${x.category}|${x.severity}`.localeCompare(`${y.category}|${y.severity}`),
    ),
  };
}

function expectSameAsRows(filter: Omit<AnalyticsFilter, 'bucketMs'>, bucketMs: number): CallAnalytics {
  const analytics = index.analytics({ ...filter, bucketMs });
  const rows = index.calls({ ...(filter as CallFilter), limit: 1_000_000 });
  expect(rows.length).toBeGreaterThan(0);
  expect(canonical(analytics)).toEqual(
    countRows(rows, bucketMs, filter.durationBoundsMs ?? BOUNDS, filter.bucketOffsetMs),
  );
  return analytics;
}

describe('analytics', () => {
  it('equals plain counts over the calls() rows of the same files', () => {
    const all = expectSameAsRows({}, 5 * 60_000);
    expect(all.calls).toBeGreaterThan(100);
    expect(all.errors).toBeGreaterThan(all.expectedErrors);
    expect(all.expectedErrors).toBeGreaterThan(0);
    expect(all.buckets.length).toBeGreaterThan(3);
    expect(all.projects.length).toBeGreaterThan(3);
    expect(all.tools.length).toBeGreaterThan(10);
    expect(all.categories.length).toBeGreaterThan(3);
    expect(all.durations.filter((n) => n > 0).length).toBeGreaterThan(2);
    expectSameAsRows({}, HOUR);
    expectSameAsRows({}, DAY);
    // Weeks from Monday (1970-01-05, 4 days after the epoch): every bucket starts on a Monday at 00:00 UTC.
    const weeks = expectSameAsRows({ bucketOffsetMs: 4 * DAY }, 7 * DAY);
    const starts = weeks.buckets.flatMap((b) => (b.startMs === null ? [] : [new Date(b.startMs)]));
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every((d) => d.getUTCDay() === 1 && d.getUTCHours() === 0)).toBe(true);
  });

  it('applies the project, tool, session, time and path filters as calls() does', () => {
    // The copy is another session (another project folder); between identical copies, a call belongs to one.
    const sample = index.listSessions({ paths: [samples, copy] }).find((s) => s.toolCalls > 10 && s.startedAt);
    if (!sample?.startedAt || !sample.endedAt) throw new Error('no sample session with calls');
    const middle = new Date((Date.parse(sample.startedAt) + Date.parse(sample.endedAt)) / 2).toISOString();
    expectSameAsRows({ paths: [samples] }, 60_000);
    expectSameAsRows({ paths: [copy] }, 60_000);
    expectSameAsRows({ project: 'known' }, HOUR);
    expectSameAsRows({ tool: 'Bash' }, 60_000);
    expectSameAsRows({ tool: 'Task' }, 60_000);
    expectSameAsRows({ sessionId: sample.ref }, 60_000);
    expectSameAsRows({ since: sample.startedAt, until: middle }, 60_000);
    expectSameAsRows({ since: middle, paths: [samples] }, 60_000);
    expectSameAsRows({ durationBoundsMs: [10, 20_000] }, DAY);
  });

  it('counts only the calls that occur in a file under the paths', () => {
    const inCopy = toolUseIds(copy).size;
    expect(inCopy).toBeLessThan(toolUseIds(samples).size);
    expect(index.analytics({ paths: [copy], bucketMs: DAY }).calls).toBe(inCopy);
    expect(index.analytics({ paths: [samples], bucketMs: DAY }).calls).toBe(toolUseIds(samples).size);
  });

  it('counts a small home exactly', () => {
    const a = index.analytics({ paths: [known], bucketMs: DAY });
    const day1 = Date.parse('2026-02-01T00:00:00Z');
    expect(a).toMatchObject({
      calls: 4,
      errors: 2,
      expectedErrors: 1,
      firstMs: Date.parse('2026-02-01T10:00:00Z'),
      lastMs: Date.parse('2026-02-02T09:00:00Z'),
      bucketMs: DAY,
      buckets: [
        { startMs: day1, calls: 2, errors: 1, expectedErrors: 0 },
        { startMs: day1 + DAY, calls: 1, errors: 1, expectedErrors: 1 },
        { startMs: null, calls: 1, errors: 0, expectedErrors: 0 },
      ],
      projects: [{ project: '/home/user/known', sessions: 1, calls: 4, errors: 2, expectedErrors: 1 }],
      tools: [
        { tool: 'Bash', calls: 2, errors: 2, expectedErrors: 1, durations: [1, 0, 0, 0, 0, 1] },
        // a tie goes to the tool used last; calls without a timestamp count as oldest
        { tool: 'Read', calls: 1, errors: 0, expectedErrors: 0, durations: [0, 0, 1, 0, 0, 0] },
        { tool: 'Grep', calls: 1, errors: 0, expectedErrors: 0, durations: [0, 0, 0, 0, 0, 0] },
      ],
      durationBoundsMs: BOUNDS,
      durations: [1, 0, 1, 0, 0, 1],
      categories: [
        // the same tie rule: the rejection is the later error
        { category: 'user-rejected', severity: 'expected', count: 1 },
        { category: 'exit-code', severity: 'error', count: 1 },
      ],
    });
    const hours = index.analytics({ paths: [known], bucketMs: HOUR, since: '2026-02-01T10:15:00Z' });
    expect(hours.buckets).toEqual([
      { startMs: Date.parse('2026-02-01T10:00:00Z'), calls: 1, errors: 0, expectedErrors: 0 },
      { startMs: Date.parse('2026-02-02T09:00:00Z'), calls: 1, errors: 1, expectedErrors: 1 },
    ]);
  });

  it('picks the bucket width from the time span of the calls when given a function', () => {
    const spans: number[] = [];
    const a = index.analytics({
      paths: [known],
      bucketMs: (spanMs) => {
        spans.push(spanMs);
        return spanMs > HOUR ? DAY : 60_000;
      },
    });
    expect(spans).toEqual([Date.parse('2026-02-02T09:00:00Z') - Date.parse('2026-02-01T10:00:00Z')]);
    expect(a.bucketMs).toBe(DAY);
    const none = index.analytics({ paths: [known], since: '2030-01-01', bucketMs: (spanMs) => spanMs + 1 });
    expect(none).toMatchObject({ calls: 0, firstMs: null, lastMs: null, bucketMs: 1, buckets: [], projects: [] });
    expect(none.durations).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('rejects a bucket width that is not positive and bounds that are not ascending', () => {
    expect(() => index.analytics({ bucketMs: 0 })).toThrow(RangeError);
    expect(() => index.analytics({ bucketMs: () => Number.NaN })).toThrow(RangeError);
    expect(() => index.analytics({ bucketMs: DAY, durationBoundsMs: [100, 100] })).toThrow(RangeError);
    expect(() => index.analytics({ bucketMs: DAY, durationBoundsMs: [Number.POSITIVE_INFINITY] })).toThrow(RangeError);
  });

  it('reads the same aggregates from the database file in a second process', () => {
    const again = openIndex({ dbPath });
    try {
      expect(again.analytics({ bucketMs: HOUR })).toEqual(index.analytics({ bucketMs: HOUR }));
    } finally {
      again.close();
    }
  });
});
