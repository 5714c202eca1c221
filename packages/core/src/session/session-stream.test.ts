import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
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
    // and each from its first record in the reader's 1 MiB reads ran up to 2 MiB past its end (2.7 times the file).
    expect(read).toBeLessThanOrEqual(size);
  });
});
