/**
 * Tool inputs and results are read back from the transcripts, not stored (call-payloads.ts): read only where a fact
 * needs them, and a read that fails never makes a fact poorer.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';
import { RecordReader } from './record-reader.js';

let dir: string;
let home: string;
let project: string;
let index: AgentIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-payloads-'));
  home = join(dir, 'home');
  project = join(home, 'projects', '-home-u-p');
  mkdirSync(project, { recursive: true });
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  vi.restoreAllMocks();
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const ORIGINAL = 'aaaaaaaa-2222-4333-8444-555555555555';
const COPY = 'bbbbbbbb-2222-4333-8444-555555555555';
const LATER = 'cccccccc-2222-4333-8444-555555555555';

function head(session: string, uuid: string, parent: string | null, second: number) {
  return {
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/u/p',
    sessionId: session,
    version: '2.1.330',
    uuid,
    timestamp: new Date(Date.UTC(2026, 0, 2, 10) + second * 1000).toISOString(),
  };
}

/** A prompt, then `calls` Bash calls, each answered: the last one fails with exit 1. */
function session(id: string, calls: number): string[] {
  const lines = [
    JSON.stringify({ ...head(id, 'u0', null, 0), type: 'user', message: { role: 'user', content: 'go' } }),
  ];
  let parent = 'u0';
  for (let i = 0; i < calls; i++) {
    const failed = i === calls - 1;
    lines.push(
      JSON.stringify({
        ...head(id, `a${i}`, parent, 2 * i + 1),
        type: 'assistant',
        message: {
          id: `msg_${i}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-4-5',
          content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `run ${i}` } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }),
      JSON.stringify({
        ...head(id, `r${i}`, `a${i}`, 2 * i + 2),
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: `toolu_${i}`,
              content: failed ? 'Error: Exit code 1' : 'ok',
              is_error: failed,
            },
          ],
        },
      }),
    );
    parent = `r${i}`;
  }
  return lines;
}

/** The same lines as another session's (a resumed session copies the calls before it). */
const copied = (lines: readonly string[], id: string) =>
  lines.map((line) => JSON.stringify({ ...JSON.parse(line), sessionId: id }));

const write = (id: string, lines: readonly string[]) =>
  writeFileSync(join(project, `${id}.jsonl`), `${lines.join('\n')}\n`);

describe('tool inputs and results read back from the transcripts', () => {
  it('reads nothing back for a resumed session whose copied calls already have their facts', async () => {
    write(ORIGINAL, session(ORIGINAL, 40));
    await index.refresh([home], { parseWorkers: 0 });
    const read = vi.spyOn(RecordReader.prototype, 'recordsAt');
    write(COPY, [
      ...copied(session(ORIGINAL, 40), COPY),
      JSON.stringify({ ...head(COPY, 'z', 'r39', 500), type: 'user', message: { role: 'user', content: 'more' } }),
    ]);
    await index.refresh([home], { parseWorkers: 0 });
    expect(read).not.toHaveBeenCalled();
    // The copies count once, with the original's facts.
    const stats = index.stats();
    expect([stats.calls, stats.paired, stats.errors]).toEqual([40, 40, 1]);
  });

  it('reads back a call whose result comes in another file, and classifies it by that result', async () => {
    const lines = session(ORIGINAL, 3);
    // The last call's result is cut off: it comes in the session resumed after it.
    write(ORIGINAL, lines.slice(0, -1));
    await index.refresh([home], { parseWorkers: 0 });
    expect([index.stats().paired, index.stats().errors]).toEqual([2, 0]);
    const read = vi.spyOn(RecordReader.prototype, 'recordsAt');
    write(LATER, copied(lines, LATER));
    await index.refresh([home], { parseWorkers: 0 });
    // The call in the first file, its result in the second: both records read back at once.
    expect(read).toHaveBeenCalledTimes(1);
    expect(read.mock.calls[0]?.[0].map((p) => [p.file.sessionId, p.line])).toEqual([
      [ORIGINAL, 6],
      [LATER, 7],
    ]);
    const stats = index.stats();
    expect([stats.calls, stats.paired, stats.errors]).toEqual([3, 3, 1]);
    expect(stats.tools.Bash?.categories).toEqual({ 'exit-code': 1 });
  });

  // Which of two files with the same calls at the same times holds their facts is the one imported first (the newer
  // file, by mtime): both ways round, the fact stays when the other file is read back and cannot be.
  for (const owner of ['the original', 'the copy'] as const) {
    it(`keeps a fact as it was when its records cannot be read back now (${owner} held it)`, async () => {
      write(ORIGINAL, session(ORIGINAL, 3));
      write(COPY, copied(session(ORIGINAL, 3), COPY));
      const older = new Date('2026-01-02T00:00:00Z');
      const newer = new Date('2026-01-03T00:00:00Z');
      const copyNewer = owner === 'the copy';
      utimesSync(join(project, `${ORIGINAL}.jsonl`), copyNewer ? older : newer, copyNewer ? older : newer);
      utimesSync(join(project, `${COPY}.jsonl`), copyNewer ? newer : older, copyNewer ? newer : older);
      await index.refresh([home], { parseWorkers: 0, archive: false });
      expect([index.stats().paired, index.stats().errors]).toEqual([3, 1]);
      // The copy leaves: its ids' facts are computed again, and their records cannot be read back this time.
      const read = vi
        .spyOn(RecordReader.prototype, 'recordsAt')
        .mockImplementation(async (places) => places.map(() => []));
      unlinkSync(join(project, `${COPY}.jsonl`));
      await index.refresh([home], { parseWorkers: 0, archive: false });
      expect(read).toHaveBeenCalled();
      const stats = index.stats();
      expect([stats.sessions, stats.calls, stats.paired, stats.errors]).toEqual([1, 3, 3, 1]);
      expect(stats.tools.Bash?.categories).toEqual({ 'exit-code': 1 });
    });
  }
});
