/**
 * The same transcripts in two agent homes of one index (a second clone's sample sessions, a backup of `~/.claude`
 * indexed beside the live one): each copy is a history of its own, whose sessions count their calls as they would
 * alone. Counts over both homes count each call and each API response once (the copies are one piece of work kept
 * twice), and list every session of both. Within one home, a fork or resume copy still counts once (the corpus,
 * sample and wild suites check those).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../test/temp-home.js';
import { type AgentIndex, openIndex } from './index.js';
import { severalHomes } from './read/home-copies.js';
import type { Store } from './read/scope.js';
import type { SessionSummary } from './types.js';

let dir: string;
let homeA: string;
let homeB: string;
let alone: AgentIndex;
let shared: AgentIndex;

/** What a session row says of its calls, by session id (the copies' keys differ by their folder). */
function callFigures(sessions: readonly SessionSummary[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of sessions) {
    out[s.id] = { toolCalls: s.toolCalls, errors: s.errors, expected: s.expectedErrors, subagents: s.subagents };
  }
  return out;
}

/**
 * Two copies of the samples home, one index of the first alone and one of both. Built once per describe: only the last
 * test changes a home, and it has a set of its own.
 */
function twoHomes(): void {
  beforeAll(async () => {
    ({ dir, home: homeA } = copySamplesHome('agentdash-two-homes-'));
    homeB = join(dir, 'backup-home');
    cpSync(homeA, homeB, { recursive: true });
    alone = openIndex({ dbPath: join(dir, 'alone.sqlite') });
    await alone.refresh([homeA]);
    shared = openIndex({ dbPath: join(dir, 'shared.sqlite') });
    await shared.refresh([homeA]);
    await shared.refresh([homeB]);
  });
  afterAll(() => {
    alone.close();
    shared.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

describe('two copies of a home in one index', () => {
  twoHomes();

  it('list every session of either copy with the calls and errors it has alone', () => {
    const expected = callFigures(alone.listSessions({ paths: [homeA] }));
    expect(Object.values(expected).some((s) => (s as { toolCalls: number }).toolCalls > 0)).toBe(true);
    expect(callFigures(shared.listSessions({ paths: [homeA] }))).toEqual(expected);
    expect(callFigures(shared.listSessions({ paths: [homeB] }))).toEqual(expected);
  });

  it("give each copy's session header the counts of the session alone", () => {
    const sessions = alone.listSessions({ paths: [homeA] });
    const copies = new Map(shared.listSessions({ paths: [homeB] }).map((s) => [s.id, s]));
    let withCalls = 0;
    for (const s of sessions) {
      const copy = copies.get(s.id);
      expect(copy?.key.startsWith(homeB)).toBe(true);
      const header = shared.sessionHeader(copy?.key ?? '');
      const own = alone.sessionHeader(s.key);
      expect({ counts: header?.counts, tools: header?.toolCounts }).toEqual({
        counts: own?.counts,
        tools: own?.toolCounts,
      });
      if (Object.keys(own?.toolCounts ?? {}).length > 0) withCalls++;
    }
    expect(withCalls).toBeGreaterThan(5);
  });

  it('give the same statistics for either copy, and count each call once when both are in scope', () => {
    const own = alone.stats({ paths: [homeA] });
    expect(own.calls).toBeGreaterThan(100);
    expect(shared.stats({ paths: [homeA] })).toEqual(own);
    expect(shared.stats({ paths: [homeB] })).toEqual(own);
    // A backup beside the live home holds the same calls: they were made once. Each copy is still a session listed
    // with its own figures (above), so the sessions are counted as the list shows them.
    const both = shared.stats();
    expect({ calls: both.calls, errors: both.errors, tools: both.byCanonical, sessions: both.sessions }).toEqual({
      calls: own.calls,
      errors: own.errors,
      tools: own.byCanonical,
      sessions: 2 * own.sessions,
    });
    const listed = shared.listSessions().reduce((sum, s) => sum + s.toolCalls, 0);
    expect(listed).toBe(2 * own.calls);
  });

  it("count in the list's totals, Analytics and Usage what a home alone holds, each once", () => {
    const own = alone.stats({ paths: [homeA] });
    const figures = (index: AgentIndex) => {
      const { total, totals } = index.sessionTotals({});
      const analytics = index.analytics({ bucketMs: 86_400_000 });
      const usage = index.usageResponses();
      return {
        list: { toolCalls: totals.toolCalls, errors: totals.errors, expected: totals.expectedErrors },
        analytics: { calls: analytics.calls, errors: analytics.errors, expected: analytics.expectedErrors },
        analyticsTools: analytics.tools,
        usage: { responses: usage.length, output: usage.reduce((sum, r) => sum + r.tokens.outputTokens, 0) },
        calls: index.calls({}).length,
        sessions: total,
      };
    };
    const one = figures(alone);
    expect(one.list.toolCalls).toBe(own.calls);
    expect(one.analytics.calls).toBe(own.calls);
    expect(figures(shared)).toEqual({ ...one, sessions: 2 * one.sessions });
    // The copy that has a session's responses has its calls (usage's owner: here the copies are alike, the first key).
    const homeOf = (path: string) => (path.startsWith(homeB) ? 'B' : path.startsWith(homeA) ? 'A' : path);
    expect({
      calls: [...new Set(shared.calls({}).map((c) => homeOf(c.file)))],
      usage: [...new Set(shared.usageResponses().map((r) => homeOf(r.context.sessionKey)))],
    }).toEqual({ calls: ['B'], usage: ['B'] });
    // Either copy alone, in the shared index, is the home alone.
    expect(shared.sessionTotals({ paths: [homeB] }).totals).toEqual(alone.sessionTotals({}).totals);
    expect(shared.analytics({ paths: [homeB], bucketMs: 86_400_000 }).calls).toBe(own.calls);
  });
});

describe('two copies of a home in one index, one deleted', () => {
  twoHomes();

  it('keep the other copy whole when one is deleted from disk and indexed again', async () => {
    const expected = callFigures(alone.listSessions({ paths: [homeA] }));
    rmSync(join(homeA, 'projects'), { recursive: true, force: true });
    mkdirSync(join(homeA, 'projects'));
    await shared.refresh([homeA]);
    await shared.refresh([homeB]);
    expect(callFigures(shared.listSessions({ paths: [homeB] }))).toEqual(expected);
    // The deleted copy stays, from the archive, with its own figures.
    const archived = shared.listSessions({ paths: [homeA] });
    expect(archived.every((s) => s.archived)).toBe(true);
    expect(callFigures(archived)).toEqual(expected);
  });
});

describe('two copies of a home with responses without a message id', () => {
  it('count each response once in Usage, as one copy does', async () => {
    const wild = fileURLToPath(new URL('../../cli/test/fixtures/wild/claude-home', import.meta.url));
    const at = mkdtempSync(join(tmpdir(), 'agentdash-two-homes-ids-'));
    const [a, b] = [join(at, 'a'), join(at, 'b')];
    cpSync(wild, a, { recursive: true });
    cpSync(wild, b, { recursive: true });
    const one = openIndex({ dbPath: join(at, 'one.sqlite') });
    const two = openIndex({ dbPath: join(at, 'two.sqlite') });
    await one.refresh([a]);
    await two.refresh([a, b]);
    const figures = (index: AgentIndex) => {
      const usage = index.usageResponses();
      return {
        responses: usage.length,
        withoutId: usage.filter((r) => r.messageId === undefined).length,
        output: usage.reduce((sum, r) => sum + r.tokens.outputTokens, 0),
      };
    };
    const alone = figures(one);
    const both = figures(two);
    one.close();
    two.close();
    rmSync(at, { recursive: true, force: true });
    expect(alone.withoutId).toBeGreaterThan(0);
    expect(both).toEqual(alone);
  });
});

describe('whether an index holds two homes of one agent', () => {
  it('is so for two Claude homes, not for a Claude home beside a Codex home (no call id is in both)', async () => {
    const at = mkdtempSync(join(tmpdir(), 'agentdash-two-homes-agents-'));
    try {
      const claude = join(at, 'claude-home');
      cpSync(fileURLToPath(new URL('../../cli/samples/claude-home', import.meta.url)), claude, { recursive: true });
      const codex = fileURLToPath(new URL('../../core/test/fixtures/codex/0.171.0/codex-home', import.meta.url));
      const homesOf = async (name: string, paths: string[]) => {
        const path = join(at, `${name}.sqlite`);
        const index = openIndex({ dbPath: path });
        await index.refresh(paths);
        index.close();
        const db = new Database(path, { readonly: true });
        try {
          return severalHomes({ db } as unknown as Store);
        } finally {
          db.close();
        }
      };
      // Before: any two homes, so every stats query of a Claude and Codex user listed the call ids in two files.
      expect(await homesOf('mixed', [claude, codex])).toBe(false);
      const backup = join(at, 'backup', 'claude-home');
      cpSync(claude, backup, { recursive: true });
      expect(await homesOf('backup', [claude, backup])).toBe(true);
      expect(await homesOf('one', [claude])).toBe(false);
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  });
});

describe("two agents' calls of one id", () => {
  it('are two calls: a count over both agents is the sum of each', async () => {
    const at = mkdtempSync(join(tmpdir(), 'agentdash-two-homes-ids-'));
    try {
      const claude = join(at, 'claude-home');
      cpSync(fileURLToPath(new URL('../../cli/samples/claude-home', import.meta.url)), claude, { recursive: true });
      // Codex in two homes (a copy beside the original), the copy's first call given a sample Claude call's id (a
      // Bash call with its result): hand-made fixtures of two agents reuse ids so (the wild set's
      // "[trimmed for fixture]"), and every stats query over both homes counted one call less than its agents' rows.
      const codex = fileURLToPath(new URL('../../core/test/fixtures/codex/0.98.0/codex-home', import.meta.url));
      const copy = join(at, 'backup', 'codex-home');
      cpSync(codex, copy, { recursive: true });
      const rollout = join(
        copy,
        'sessions/2026/11/23/rollout-2026-11-23T00-59-36-01a205ea-6204-7da3-b30a-c2f1c9ce425e.jsonl',
      );
      const text = readFileSync(rollout, 'utf8');
      expect(text).toContain('call_C8HpoM4b26OuyvilaE030MOq');
      writeFileSync(rollout, text.replaceAll('call_C8HpoM4b26OuyvilaE030MOq', 'toolu_01Je8ZoR3yRKREO9PWLCrpnG'));
      const index = openIndex({ dbPath: join(at, 'index.sqlite') });
      try {
        await index.refresh([claude, codex, copy]);
        const calls = (agent?: 'claude' | 'codex') => index.stats(agent ? { agent } : {}).calls;
        expect(index.calls({}).filter((c) => c.callId === 'toolu_01Je8ZoR3yRKREO9PWLCrpnG').length).toBe(2);
        expect(calls('codex')).toBeGreaterThan(0);
        expect(calls()).toBe(calls('claude') + calls('codex'));
      } finally {
        index.close();
      }
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  });
});
