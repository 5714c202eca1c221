import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/helpers.js';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import type { Session } from '../model/session.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

/**
 * A Claude Code 2.1.23 session trimmed from ../shared/wild (entire-cli-19): its main file holds a Task call and, as
 * `agent_progress` records, the first 15 records of subagent ae66507's work (2 responses, 7 calls with their
 * results). `without-file` is that home as copied, the subagent's file missing; `with-file` adds the file, made from
 * those records, as Claude Code writes it.
 */
const fixtures = join(repoRoot, 'packages/core/test/fixtures/claude-progress');
const TASK = 'toolu_01CLXPNCV6ec19Db4AoHLtkj';

async function sessionsIn(home: string): Promise<Session[]> {
  const groups = groupSessions((await discoverAll([home])).files);
  return Promise.all(groups.map((group) => loadSession(group)));
}

async function onlySession(home: string): Promise<Session> {
  const [session, ...others] = await sessionsIn(home);
  expect(others).toEqual([]);
  return session as Session;
}

/** The session of a main file, with every file of it in its project folder. */
async function sessionOf(main: string): Promise<Session> {
  const groups = groupSessions((await discoverAll([dirname(main)])).files);
  const group = groups.find((g) => g.main?.path === main);
  if (group === undefined) throw new Error(`no session of ${main}`);
  return loadSession(group);
}

/** What the header, the calls and usage say of a session. */
function figures(session: Session) {
  return {
    subagents: session.subagents.map((s) => ({
      agentId: s.agentId,
      linkedBy: s.linkedBy,
      parentCallId: s.parentCallId,
      prompt: s.prompt?.slice(0, 40),
      events: s.events.map((e) => e.kind),
    })),
    calls: session.calls.map((c) => [c.id, c.name, c.status, c.result?.typed.kind, c.subagentKey ?? null]),
    usage: session.usageByModel,
    counts: { ...session.counts, records: undefined },
    main: session.events.map((e) => e.kind),
    models: session.models,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
  };
}

describe("a subagent's records copied into its parent's file (agent_progress)", () => {
  it('are its thread when its file is missing: linked to the Task call, calls paired and typed, tokens once', async () => {
    const session = await onlySession(join(fixtures, 'without-file'));
    expect(session.subagents.map((s) => [s.agentId, s.linkedBy, s.parentCallId, s.file])).toEqual([
      ['ae66507', 'agent-id', TASK, session.files[0]?.path],
    ]);
    const sub = session.calls.filter((c) => c.id !== TASK);
    expect(sub.map((c) => `${c.name} ${c.status} ${c.result?.typed.kind}`)).toEqual([
      'Read ok read',
      'Read ok read',
      'Glob ok glob',
      'Read ok read',
      'Read ok read',
      'Bash ok bash',
      'Bash ok bash',
    ]);
    // Two responses of three and four block records each: counted once each, beside the main thread's two.
    const usage = session.usageByModel['claude-opus-4-5-20251101'];
    expect(usage).toMatchObject({ responses: 4, cacheCreationInputTokens: 92851, cacheReadInputTokens: 138008 });
    expect(session.counts).toMatchObject({ assistantMessages: 4, toolCalls: 8, errors: 0 });
    // The progress records stay what they were: the main thread's progress events, the raw data kept.
    const progress = session.events.filter((e) => e.kind === 'progress');
    expect(progress).toHaveLength(16);
    expect(progress.every((e) => e.kind === 'progress' && typeof e.record.data.type === 'string')).toBe(true);
  });

  it("count exactly as the subagent's own file does, and nothing more when that file is there", async () => {
    const copied = await onlySession(join(fixtures, 'without-file'));
    const filed = await onlySession(join(fixtures, 'with-file'));
    // As before: the subagent's file is its thread, its 7 calls and 2 responses counted once.
    expect(filed.subagents.map((s) => [s.agentId, s.file?.endsWith('agent-ae66507.jsonl')])).toEqual([
      ['ae66507', true],
    ]);
    expect(filed.calls).toHaveLength(8);
    expect(filed.counts).toMatchObject({ records: 36, assistantMessages: 4, toolCalls: 8 });
    expect(filed.usageByModel['claude-opus-4-5-20251101']).toMatchObject({
      responses: 4,
      cacheReadInputTokens: 138008,
    });
    expect(figures(copied)).toEqual(figures(filed));
  });

  it.each(['without-file', 'with-file'])('%s: the stream gives what the load gives', async (variant) => {
    const [group] = groupSessions((await discoverAll([join(fixtures, variant)])).files);
    if (group === undefined) throw new Error('no session');
    const loaded = await loadSession(group);
    const stream = await openSessionStream(group);
    const subagents = [];
    for (const s of stream.subagents) {
      const events = [];
      for await (const e of stream.events(s.key)) events.push(e);
      subagents.push({ ...s, events });
    }
    const calls = [];
    for await (const c of stream.calls()) calls.push(c);
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    expect(plain({ subagents, calls, tail: await stream.tail() })).toEqual(
      plain({
        subagents: loaded.subagents,
        calls: loaded.calls,
        tail: {
          orphanResults: loaded.orphanResults,
          issues: loaded.issues,
          usageByModel: loaded.usageByModel,
          leafUuid: loaded.leafUuid,
          counts: loaded.counts,
        },
      }),
    );
  });
});

const wild = join(repoRoot, '../shared/wild/claude-home/projects');
/**
 * The wild sessions holding agent_progress records (an audit of every file): each subagent whose file is missing,
 * with the calls its copies hold; spotter-1 has its subagent's file, so its copies count for nothing.
 */
const copiedOnly: Record<string, Record<string, number>> = {
  'entire-cli-16/163396cf-348b-4175-90f5-5ca0986ac0f1.jsonl': { a102bdd: 18 },
  'entire-cli-19/70c88cff-cb35-404f-a974-2a08bab4e4bc.jsonl': { ae66507: 24 },
  'entire-cli-30/acdd84ab-e724-42c8-925d-420b2a4f1861.jsonl': { ad355fd: 18 },
  'spotter-3/subagent.jsonl': { afb92ff: 9 },
  'erk-1/8128346d-e674-4ca1-9be1-5387bfa72ca7.jsonl': { a8433813665d67f87: 1 },
  'erk-1/beddc0be-103e-4a78-ae7d-ba6c1bad3ac8.jsonl': { a12de436aa43578f9: 2, a40d27261c2f8603a: 1 },
  'erk-1/d9cb4436-f9e7-4a74-b3eb-cd20580ce667.jsonl': { a31e33d9e4a60de1c: 1, a035bed1289ded2b6: 1 },
  'erk-1/e3aec60f-2005-4b3e-9a0a-0f9e535a8730.jsonl': { a62e0353bdbce8641: 1, af0fd776aa76ece75: 1 },
  'erk-1/e60f74ce-8b67-4aa6-a1a2-39b1c8b8213a.jsonl': { a353107b5f9587b03: 2 },
};

describe.skipIf(!existsSync(wild))(
  existsSync(wild) ? 'agent_progress in ../shared/wild' : 'agent_progress in ../shared/wild (skipped: not present)',
  () => {
    it.each(Object.entries(copiedOnly))('%s: each missing subagent is a thread of its calls', async (file, agents) => {
      const session = await sessionOf(join(wild, file));
      const main = session.files[0]?.path;
      expect(session.subagents.map((s) => [s.agentId, s.linkedBy, s.file === main])).toEqual(
        Object.keys(agents).map((id) => [id, 'agent-id', true]),
      );
      const callsOf = Object.fromEntries(
        session.subagents.map((s) => [s.agentId, session.calls.filter((c) => inThread(s.events, c.id)).length]),
      );
      expect(callsOf).toEqual(agents);
      // Every call the copies hold has its result: none is left pending or unanswered by them.
      const copied = session.calls.filter((c) => session.subagents.some((s) => inThread(s.events, c.id)));
      expect(copied.filter((c) => c.status !== 'ok' && c.status !== 'error')).toEqual([]);
    });

    it("spotter-1: the subagent's file is its thread; its copies add no call, response or thread", async () => {
      const session = await sessionOf(join(wild, 'spotter-1/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'));
      expect(session.subagents.map((s) => [s.agentId, s.file?.endsWith(`agent-${s.agentId}.jsonl`)])).toEqual([
        ['a2898e3', true],
        ['acompact-e1f845', true],
      ]);
      expect(session.calls).toHaveLength(183);
      expect(session.counts.assistantMessages).toBe(152);
    });
  },
);

function inThread(events: Session['events'], callId: string): boolean {
  return events.some((e) => e.kind === 'assistant' && e.items.some((i) => i.kind === 'tool-call' && i.id === callId));
}
