import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT,
  assistantText,
  basesOf,
  prompt,
  type RecordBase,
  SESSION,
  toolResult,
  toolUse,
  writeLines,
} from '@agentdash/testing/synthetic';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import { type OpenBytes, openFileBytes } from '../io/read-lines.js';
import type { TimelineEvent } from '../model/session.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';

const SUBAGENTS = 12;
/** Each subagent's Read result and the main thread's answer after it: a run is about half of its part of the file. */
const TEXT_CHARS = 200_000;

const root = mkdtempSync(join(tmpdir(), 'agentdash-session-stream-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A main file as Claude Code ≤2.0 wrote one: each Task call's subagent run (sidechain records, no file of its own)
 * written inside it between the call and its result, one after another.
 */
function writeInFileSubagents(): string {
  const main = join(root, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`);
  const b = basesOf(SESSION);
  const side = (uuid: string, parent: string | null, second: number): RecordBase => ({
    ...b(uuid, parent, second),
    isSidechain: true,
  });
  const lines = [prompt(b('u0', null, 0), 'Survey every part of the code.')];
  let parent = 'u0';
  for (let i = 0; i < SUBAGENTS; i++) {
    const task = `toolu_task${i}`;
    const ask = `Survey part ${i} of the code.`;
    lines.push(
      toolUse(b(`t${i}`, parent, 1), `msg_t${i}`, task, 'Task', { description: `Part ${i}`, prompt: ask }),
      prompt(side(`s${i}a`, null, 2), ask),
      toolUse(side(`s${i}b`, `s${i}a`, 3), `msg_s${i}`, `toolu_read${i}`, 'Read', { file_path: `/src/p${i}.ts` }),
      toolResult(side(`s${i}c`, `s${i}b`, 4), `toolu_read${i}`, `part ${i} `.repeat(TEXT_CHARS / 8), false),
      assistantText(side(`s${i}d`, `s${i}c`, 5), `msg_s${i}d`, `Part ${i} is fine.`),
      toolResult(b(`r${i}`, `t${i}`, 6), task, `Part ${i} is fine.`, false),
      assistantText(b(`m${i}`, `r${i}`, 7), `msg_m${i}`, `noted ${i} `.repeat(TEXT_CHARS / 9)),
    );
    parent = `m${i}`;
  }
  lines.push(assistantText(b('end', parent, 8), 'msg_end', 'Every part is fine.'));
  writeLines(main, lines);
  return main;
}

/** Opens files as the disk does, counting the bytes read of `path` (each read as large as the reader asks). */
function countingOpen(path: string): { open: OpenBytes; read: () => number } {
  let bytes = 0;
  const open: OpenBytes = async (file) => {
    const source = await openFileBytes(file);
    return {
      read: async (buffer, offset, length, position) => {
        const got = await source.read(buffer, offset, length, position);
        if (file === path) bytes += got.bytesRead;
        return got;
      },
      close: () => source.close(),
    };
  };
  return { open, read: () => bytes };
}

async function collected(events: AsyncIterable<TimelineEvent>): Promise<TimelineEvent[]> {
  const out: TimelineEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("a streamed session's in-file subagents", () => {
  it('are each read from their first record to their last, not from the start of the file to its end', async () => {
    const main = writeInFileSubagents();
    const size = statSync(main).size;
    const [group] = groupSessions((await discoverAll([root])).files);
    if (group === undefined) throw new Error('no session written');
    const loaded = await loadSession(group);
    const counting = countingOpen(main);
    const stream = await openSessionStream(group, { open: counting.open });
    expect(stream.subagents).toHaveLength(SUBAGENTS);
    expect(await collected(stream.events())).toEqual(loaded.events);

    const before = counting.read();
    const threads: TimelineEvent[][] = [];
    for (const sub of stream.subagents) threads.push(await collected(stream.events(sub.key)));
    const read = counting.read() - before;

    expect(threads).toEqual(loaded.subagents.map((sub) => sub.events));
    // Every run together is about half the file: reading each from the file's start to its end read it 12 times,
    // and each from its first record in the reader's 1 MiB reads ran up to 2 MiB past its end (more than the file).
    expect(read).toBeLessThanOrEqual(size);
  });
});

/** A Claude Code 2.1.x `agent_progress` record: a copy of agent `agentId`'s record (`copied`, a line) in a file. */
function progress(base: RecordBase, agentId: string, copied: string): string {
  const { type, message, uuid, timestamp } = JSON.parse(copied) as Record<string, unknown>;
  const { message: _, ...envelope } = JSON.parse(prompt(base, '')) as Record<string, unknown>;
  return JSON.stringify({
    ...envelope,
    type: 'progress',
    data: { type: 'agent_progress', agentId, message: { type, message, uuid, timestamp } },
  });
}

describe("a streamed subagent's records copied into two files", () => {
  it("are read from each file in turn, every record kept, whatever the other file's records' places", async () => {
    const home = join(root, 'copies-in-two-files');
    const project = join(home, 'projects', '-home-user-proj-demo');
    const b = basesOf(SESSION);
    const x = (uuid: string, second: number): RecordBase => ({ ...b(uuid, null, second), isSidechain: true });
    const filed = (uuid: string, parent: string | null, second: number): RecordBase => ({
      ...b(uuid, parent, second),
      isSidechain: true,
      agentId: AGENT,
    });
    // Agent xagent has no file: its records are copied into the main file (ordinals 2-5), then into the file of
    // agent AGENT (ordinals 1-2, places before the main file's last copies).
    writeLines(join(project, `${SESSION}.jsonl`), [
      prompt(b('u0', null, 0), 'Survey the code.'),
      toolUse(b('t0', 'u0', 1), 'msg_t0', 'toolu_task0', 'Task', { description: 'Survey', prompt: 'Survey it.' }),
      progress(b('p1', 't0', 2), 'xagent', prompt(x('x1', 2), 'Survey it.')),
      progress(b('p2', 'p1', 3), 'xagent', toolUse(x('x2', 3), 'msg_x2', 'toolu_x2', 'Read', { file_path: '/a' })),
      progress(b('p3', 'p2', 4), 'xagent', toolResult(x('x3', 4), 'toolu_x2', 'a = 1', false)),
      progress(b('p4', 'p3', 5), 'xagent', assistantText(x('x4', 5), 'msg_x4', 'It is fine.')),
      toolResult(b('r0', 'p4', 6), 'toolu_task0', 'It is fine.', false),
      assistantText(b('m0', 'r0', 7), 'msg_m0', 'Done.'),
    ]);
    writeLines(join(project, SESSION, 'subagents', `agent-${AGENT}.jsonl`), [
      prompt(filed('f1', null, 8), 'Check again.'),
      progress(filed('f2', 'f1', 9), 'xagent', prompt(x('x5', 9), 'Check again.')),
      progress(filed('f3', 'f2', 10), 'xagent', assistantText(x('x6', 10), 'msg_x6', 'Still fine.')),
    ]);
    const [group] = groupSessions((await discoverAll([home])).files);
    if (group === undefined) throw new Error('no session written');
    const loaded = await loadSession(group);
    const thread = loaded.subagents.find((sub) => sub.key === 'xagent');
    const main = group.main?.path;
    const inMain = thread?.events.filter((event) => 'loc' in event && event.loc.file === main) ?? [];
    expect(inMain.length).toBeGreaterThanOrEqual(3);
    expect(thread?.events.length).toBeGreaterThan(inMain.length);

    const stream = await openSessionStream(group);
    const streamed = await collected(stream.events('xagent'));
    // Its copies in its own file first, then those in the other file: the loaded thread, event for event.
    expect(streamed).toEqual(thread?.events);
    expect(streamed.slice(0, inMain.length)).toEqual(inMain);
  });
});
