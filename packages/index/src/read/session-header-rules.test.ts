/**
 * The header's thread and pairing rules (core's `ThreadTally`, `ResultPairing`) give the index's header what a load
 * gives, over a planted session that holds every case they count: a response written as two records, hidden and
 * shown notes, a meta message, an unknown record, a sidechain run and a subagent file whose first message is meta,
 * results without an id, a second result in the same file and in another file, a result without a call, a call
 * reusing another's id in the same file and in another file — with no
 * copy (the main thread's facts read in SQL) and with a resume copy (every record read and filtered), each with the
 * main file read whole and read as it grows (its rows written in three appends: across the split response, the
 * repeated result's id answered in an earlier append, the copy appended). The
 * expected figures come from the loaded session's timelines, not from the rules. The server's
 * `session-header.test.ts` checks the whole header over the samples, the corpus and the wild homes.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  discoverFiles,
  groupSessions,
  loadSession,
  type Session,
  type TimelineEvent,
  timelineShows,
} from '@agentdash/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../index.js';

const SID = '5b0c4a53-1d2e-4f6a-9b8c-7d6e5f4a3b2c';
const AGENT = 'a1b2c3d';
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

let clock = 0;
function line(type: string, uuid: string, fields: Record<string, unknown>): string {
  clock += 1;
  const timestamp = new Date(Date.UTC(2026, 10, 20, 10, 0, clock)).toISOString();
  return JSON.stringify({
    type,
    uuid,
    parentUuid: null,
    isSidechain: false,
    sessionId: SID,
    cwd: '/home/user/proj',
    version: '2.0.76',
    timestamp,
    ...fields,
  });
}
const user = (uuid: string, content: unknown, more: Record<string, unknown> = {}) =>
  line('user', uuid, { message: { role: 'user', content }, ...more });
const assistant = (uuid: string, id: string, content: unknown[], more: Record<string, unknown> = {}) =>
  line('assistant', uuid, {
    message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content },
    ...more,
  });
const result = (id: string, text = 'done') => ({ type: 'tool_result', tool_use_id: id, content: text });

/**
 * Plant the session; `cuts` (line counts) write the main file in parts, `grow` called after each part (the index
 * refreshed over a file that grows): the first part ends inside a response written as two records, the second after
 * a result whose id is answered again in the third, where the resume copy is.
 */
async function plant(withCopy: boolean, grow?: (home: string) => Promise<void>): Promise<string> {
  if (dir === undefined) throw new Error('no test folder');
  const project = join(dir, 'claude-home', 'projects', '-home-user-proj');
  mkdirSync(join(project, SID, 'subagents'), { recursive: true });
  const task = { type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Look around.' } };
  const side = { isSidechain: true };
  const first = user('00000000-0000-4000-8000-000000000001', 'Start here.');
  const main = [
    first,
    assistant('00000000-0000-4000-8000-000000000002', 'msg_1', [{ type: 'text', text: 'On it.' }]),
    assistant('00000000-0000-4000-8000-000000000003', 'msg_1', [task]),
    user('00000000-0000-4000-8000-000000000004', [result('toolu_task'), result(''), result('')]),
    line('system', '00000000-0000-4000-8000-000000000005', { subtype: 'turn_duration', content: 'took 2 s' }),
    line('system', '00000000-0000-4000-8000-000000000006', { subtype: 'informational', content: 'a note' }),
    user('00000000-0000-4000-8000-000000000007', 'a caveat', { isMeta: true }),
    line('mystery-record', '00000000-0000-4000-8000-000000000008', { payload: 1 }),
    user('00000000-0000-4000-8000-000000000009', [result('toolu_nowhere')]),
    user('00000000-0000-4000-8000-00000000000a', [result('toolu_task', 'again')]),
    // A subagent run written inside the main file (≤2.0.27): its first message is meta, its prompt the next one.
    user('00000000-0000-4000-8000-00000000000b', 'side caveat', { ...side, isMeta: true }),
    user('00000000-0000-4000-8000-00000000000c', 'Side job.', {
      ...side,
      parentUuid: '00000000-0000-4000-8000-00000000000b',
    }),
    assistant('00000000-0000-4000-8000-00000000000d', 'msg_2', [{ type: 'text', text: 'Side done.' }], {
      ...side,
      parentUuid: '00000000-0000-4000-8000-00000000000c',
    }),
    user('00000000-0000-4000-8000-00000000000e', 'And then?'),
    // another response's call reusing the Task call's id, in its file: shown nowhere, an issue
    assistant('00000000-0000-4000-8000-00000000000f', 'msg_4', [{ ...task, name: 'Bash', input: { command: 'ls' } }]),
    ...(withCopy ? [first] : []),
  ];
  const home = join(dir, 'claude-home');
  const mainPath = join(project, `${SID}.jsonl`);
  if (grow) {
    for (const cut of [2, 4]) {
      writeFileSync(mainPath, `${main.slice(0, cut).join('\n')}\n`);
      await grow(home);
    }
  }
  writeFileSync(mainPath, `${main.join('\n')}\n`);
  const agent = { agentId: AGENT, isSidechain: true };
  const sub = [
    user('00000000-0000-4000-8000-000000000011', 'agent caveat', { ...agent, isMeta: true }),
    user('00000000-0000-4000-8000-000000000012', 'Look around.', agent),
    assistant('00000000-0000-4000-8000-000000000013', 'msg_3', [{ type: 'text', text: 'Looked.' }], agent),
    user('00000000-0000-4000-8000-000000000014', [result('toolu_task', 'third')], agent),
    // and one in the subagent's file
    assistant('00000000-0000-4000-8000-000000000016', 'msg_5', [{ ...task, name: 'Read', input: {} }], agent),
    line('mystery-record', '00000000-0000-4000-8000-000000000015', agent),
  ];
  writeFileSync(join(project, SID, 'subagents', `agent-${AGENT}.jsonl`), `${sub.join('\n')}\n`);
  return home;
}

/** Events a timeline shows by default, read off the loaded timeline (as the server's session view picks them). */
function shown(events: readonly TimelineEvent[]): number {
  return events.filter((e) => {
    if (e.kind === 'hidden') return timelineShows({ kind: 'user', hidden: e.reason }) !== undefined;
    if (e.kind === 'system')
      return timelineShows({ kind: 'system', subtype: e.record.subtype, content: e.record.content }) !== undefined;
    return e.kind === 'prompt' || e.kind === 'assistant' || e.kind === 'unknown';
  }).length;
}
const responses = (events: readonly TimelineEvent[]) => events.filter((e) => e.kind === 'assistant').length;

async function loaded(home: string): Promise<Session> {
  const { files } = await discoverFiles([home]);
  const [group] = groupSessions(files);
  if (!group) throw new Error('no planted session');
  return loadSession(group);
}

describe.each([
  ['no record is a copy', false, false],
  ['a resume copy in the main file', true, false],
  ['the main file read as it grows', false, true],
  ['the main file read as it grows, a resume copy appended', true, true],
])("the index's header counts threads and pairing as a load does (%s)", (_, withCopy, growing) => {
  it('shown events, responses, prompts, first prompts and pairing issues', async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-header-rules-'));
    const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    try {
      const home = await plant(
        withCopy,
        growing
          ? async (h) => {
              await index.refresh([h]);
            }
          : undefined,
      );
      const session = await loaded(home);
      const report = await index.refresh([home]);
      // grown: the main file's earlier parts were not read again (appended to), the subagent file read whole
      const sizes = index.listSessions()[0]?.files.map((f) => statSync(f.path).size) ?? [];
      const total = sizes.reduce((n, size) => n + size, 0);
      if (growing) expect(report.bytesParsed).toBeLessThan(total);
      else expect(report.bytesParsed).toBe(total);
      const [row] = index.listSessions();
      const header = index.sessionHeader(row?.key ?? '');
      // the planted cases are there
      const codes = session.issues.map((i) => i.code).sort();
      expect(codes.filter((c) => c === 'duplicate_result')).toHaveLength(3);
      expect(codes.filter((c) => c === 'orphan_result')).toHaveLength(2);
      expect(codes.filter((c) => c === 'reused_call_id')).toHaveLength(2);
      expect(session.counts.duplicateRecords).toBe(withCopy ? 1 : 0);
      expect(session.subagents.map((s) => s.prompt)).toEqual(['Side job.', 'Look around.']);

      expect(header?.totalEvents).toBe(shown(session.events));
      expect(header?.counts.prompts).toBe(session.events.filter((e) => e.kind === 'prompt').length);
      expect(header?.counts.prompts).toBe(session.counts.prompts);
      const allResponses = responses(session.events) + session.subagents.reduce((n, s) => n + responses(s.events), 0);
      expect(header?.counts.assistantMessages).toBe(allResponses);
      expect(session.counts.assistantMessages).toBe(allResponses);
      expect(header?.counts.duplicateRecords).toBe(session.counts.duplicateRecords);
      expect(header?.issues).toBe(session.issues.length);
      expect(header?.subagents.map((s) => [s.key, s.prompt, s.events])).toEqual(
        session.subagents.map((s) => [s.key, s.prompt ?? null, shown(s.events)]),
      );
    } finally {
      index.close();
    }
  });
});
