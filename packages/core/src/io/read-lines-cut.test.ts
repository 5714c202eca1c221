import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/helpers.js';
import { adapterForFile } from '../agents/adapters.js';
import { describeScratch } from '../agents/conformance-shared.js';
import type { AgentId } from '../model/agent.js';
import type { ParseIssue } from '../model/issue.js';
import { type LineEvent, mayStillBeWritten, type ReadLinesOptions, readLines, WRITE_SETTLE_MS } from './read-lines.js';

/** Real transcripts of each agent whose JSONL files go through `readLines`, bundled; the corpus copy when present. */
const fixtures = join(repoRoot, 'packages/core/test/fixtures');
const corpusFile = resolve(
  repoRoot,
  '../shared/corpus/2.1.330/claude-home/projects/-home-user-proj-planning/91305121-6186-4860-a2d7-4975576d061f.jsonl',
);
const sources: readonly { name: string; agent: AgentId; path: string; present: boolean }[] = [
  {
    name: 'Claude Code 2.1.332',
    agent: 'claude',
    path: join(
      fixtures,
      'claude-code/2.1.332/claude-home/projects/-home-user-proj-shell/d3df38fe-7031-47e9-b89d-48c76aefbafe.jsonl',
    ),
    present: true,
  },
  {
    name: 'Codex 0.171.0',
    agent: 'codex',
    path: join(
      fixtures,
      'codex/0.171.0/codex-home/sessions/2026/11/29/rollout-2026-11-29T16-06-31-01a2280e-d9cd-7c81-b06f-060a94d2babd.jsonl',
    ),
    present: true,
  },
  {
    name: 'Copilot 1.0.102',
    agent: 'copilot',
    path: join(
      fixtures,
      'copilot/1.0.102/copilot-home/session-state/43de551c-ae4f-4734-bdcf-8a2a343aae37/events.jsonl',
    ),
    present: true,
  },
  {
    name: 'Claude Code 2.1.330 corpus (skipped without ../shared)',
    agent: 'claude',
    path: corpusFile,
    present: existsSync(corpusFile),
  },
];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdash-cut-line-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The transcript with its last line cut at half its bytes (no newline after), last written `ageMs` ago. */
async function cutTranscript(source: string, ageMs: number) {
  const whole = readFileSync(source);
  const body = whole.subarray(0, whole.at(-1) === 0x0a ? whole.length - 1 : whole.length);
  const lastStart = body.lastIndexOf(0x0a) + 1;
  const half = Math.floor((body.length - lastStart) / 2);
  const path = join(dir, basename(source));
  await writeFile(path, body.subarray(0, lastStart + half));
  const written = (Date.now() - ageMs) / 1000;
  await utimes(path, written, written);
  const line = body.subarray(0, lastStart).filter((byte) => byte === 0x0a).length + 1;
  return { path, line, half, lastStart };
}

const cutIssue = (file: string, line: number, bytes: number): ParseIssue => ({
  code: 'invalid_json',
  file,
  line,
  message:
    `the last line ends before its record does (${bytes} bytes) and has not been written to for ` +
    `${WRITE_SETTLE_MS / 1000} s or more; it is read if it is finished later`,
});

async function readAll(path: string, options: ReadLinesOptions = {}) {
  const events: LineEvent[] = [];
  const end = await readLines(path, (event) => events.push(event), options);
  const issues = events.flatMap((e) => (e.kind === 'issue' ? [e.issue] : []));
  return { issues, end };
}

async function streamed(agent: AgentId, path: string, options: ReadLinesOptions = {}) {
  const file = await describeScratch(adapterForFile({ agent }), path);
  const issues: ParseIssue[] = [];
  let records = 0;
  const end = await adapterForFile(file).streamRecords(
    file,
    (event) => {
      if (event.kind === 'issue') issues.push(event.issue);
      else records += 1;
    },
    options,
  );
  return { issues: issues.filter((issue) => issue.message.startsWith('the last line')), end, records, all: issues };
}

describe.each(sources)('a last line cut short: $name', ({ agent, path: source, present }) => {
  it.skipIf(!present)('left alone past the settle window: reported with its line, and still held back', async () => {
    const { path, line, half, lastStart } = await cutTranscript(source, WRITE_SETTLE_MS + 60_000);
    const held = { nextOffset: lastStart, nextLine: line, pendingBytes: half, bytesRead: lastStart + half };
    expect(await readAll(path)).toEqual({ issues: [cutIssue(path, line, half)], end: held });
    // Every agent's reader gets it from readLines, none with a copy of its own.
    const read = await streamed(agent, path);
    expect({ issues: read.issues, pendingBytes: read.end.pendingBytes }).toEqual({
      issues: [cutIssue(path, line, half)],
      pendingBytes: half,
    });
  });

  it.skipIf(!present)('written within the window: held back silently, as being written', async () => {
    const { path, line, half, lastStart } = await cutTranscript(source, 1_000);
    const held = { nextOffset: lastStart, nextLine: line, pendingBytes: half, bytesRead: lastStart + half };
    expect(await readAll(path)).toEqual({ issues: [], end: { ...held, stillWriting: true } });
    const read = await streamed(agent, path);
    expect({ issues: read.issues, stillWriting: read.end.stillWriting }).toEqual({ issues: [], stillWriting: true });
  });
});

/** Sets when `path` was last written: `ageMs` ago. */
async function writtenAgo(path: string, ageMs: number) {
  const written = (Date.now() - ageMs) / 1000;
  await utimes(path, written, written);
}

/** The transcript without its final newline: its bytes, where its last line starts, that line's number. */
function unterminated(source: string) {
  const whole = readFileSync(source);
  const body = whole.subarray(0, whole.at(-1) === 0x0a ? whole.length - 1 : whole.length);
  const lastStart = body.lastIndexOf(0x0a) + 1;
  const line = body.subarray(0, lastStart).filter((byte) => byte === 0x0a).length + 1;
  const longest = Math.max(
    ...body
      .toString('latin1')
      .split('\n')
      .map((text) => text.length),
  );
  return { body, lastStart, line, longest, path: join(dir, basename(source)) };
}

const longTailIssue = (file: string, line: number, max: number, bytes: number): ParseIssue => ({
  code: 'line_too_long',
  file,
  line,
  message:
    `the last line is longer than ${max} bytes (${bytes} so far) and was skipped; it has no newline and ` +
    `has not been written to for ${WRITE_SETTLE_MS / 1000} s or more`,
});

describe.each(sources)('a last line over the length limit, no newline: $name', ({ agent, path: source, present }) => {
  /** The last record padded with spaces past the limit (the file's longest line), last written `ageMs` ago. */
  async function overlongTail(ageMs: number) {
    const { body, lastStart, line, longest: maxLineBytes, path } = unterminated(source);
    const tailBytes = maxLineBytes + 1;
    await writeFile(path, Buffer.concat([body, Buffer.alloc(lastStart + tailBytes - body.length, 0x20)]));
    await writtenAgo(path, ageMs);
    const held = { nextOffset: lastStart, nextLine: line, pendingBytes: tailBytes, bytesRead: lastStart + tailBytes };
    return { path, line, maxLineBytes, tailBytes, held };
  }

  it.skipIf(!present)('left alone: reported at its line as too long, still held back', async () => {
    const { path, line, maxLineBytes, tailBytes, held } = await overlongTail(WRITE_SETTLE_MS + 60_000);
    const issue = longTailIssue(path, line, maxLineBytes, tailBytes);
    expect(await readAll(path, { maxLineBytes })).toEqual({ issues: [issue], end: held });
    const read = await streamed(agent, path, { maxLineBytes });
    expect({ issues: read.issues, pendingBytes: read.end.pendingBytes }).toEqual({
      issues: [issue],
      pendingBytes: tailBytes,
    });
    // Finished later: the line is read on from its start and skipped as any line over the limit, at the same line.
    await appendFile(path, '\n');
    const on = await readAll(path, { maxLineBytes, startOffset: held.nextOffset, startLine: held.nextLine });
    expect(on.issues.map(({ code, line: at }) => [code, at])).toEqual([['line_too_long', line]]);
  });

  it.skipIf(!present)('written within the window: held back silently, as being written', async () => {
    const { path, maxLineBytes, held } = await overlongTail(1_000);
    expect(await readAll(path, { maxLineBytes })).toEqual({ issues: [], end: { ...held, stillWriting: true } });
    const read = await streamed(agent, path, { maxLineBytes });
    expect({ issues: read.issues, stillWriting: read.end.stillWriting }).toEqual({ issues: [], stillWriting: true });
  });
});

describe.each(sources)('bytes after a last line read as complete JSON: $name', ({ agent, path: source, present }) => {
  /** The transcript read once without its final newline, then `more` written after it `ageMs` ago. */
  async function wentOn(more: string, ageMs: number) {
    const { body, line, path } = unterminated(source);
    await writeFile(path, body);
    await writtenAgo(path, WRITE_SETTLE_MS + 60_000);
    const first = await streamed(agent, path);
    await appendFile(path, more);
    await writtenAgo(path, ageMs);
    const from = { startOffset: first.end.nextOffset, startLine: first.end.nextLine };
    return { path, line, from, first, size: body.length };
  }

  it.skipIf(!present)('left alone: reported once at that line, its record read once', async () => {
    const { path, line, from, first, size } = await wentOn(' trailing', WRITE_SETTLE_MS + 60_000);
    expect({ records: first.records, issues: first.all, end: first.end.nextLine }).toEqual({
      records: line,
      issues: [],
      end: line + 1,
    });
    // readLines took the record already: the rest is reported and skipped, nothing is held back unseen.
    expect(await readAll(path, from)).toEqual({
      issues: [
        {
          code: 'invalid_json',
          file: path,
          line,
          message:
            'line went on (9 bytes) after it was read as complete JSON, with no newline, and has not been written ' +
            `to for ${WRITE_SETTLE_MS / 1000} s or more; the rest was skipped`,
        },
      ],
      end: { nextOffset: size + 9, nextLine: line + 1, pendingBytes: 0, bytesRead: 9 },
    });
    // Each agent's reader: one issue at that line, no record again (a reader that replays the file holds it back).
    const read = await streamed(agent, path, from);
    expect({ issues: read.all.map((i) => [i.code, i.line]), records: read.records }).toEqual({
      issues: [['invalid_json', line]],
      records: 0,
    });
    await appendFile(path, '\n');
    const on = await streamed(agent, path, { startOffset: read.end.nextOffset, startLine: read.end.nextLine });
    expect({ records: on.records, nextLine: on.end.nextLine }).toEqual({ records: 0, nextLine: line + 1 });
  });

  it.skipIf(!present)('written within the window, or blank: held back silently', async () => {
    const fresh = await wentOn(' trailing', 1_000);
    const held = { nextOffset: fresh.size, nextLine: fresh.line + 1, pendingBytes: 9, bytesRead: 9 };
    expect(await readAll(fresh.path, fresh.from)).toEqual({ issues: [], end: { ...held, stillWriting: true } });
    const read = await streamed(agent, fresh.path, fresh.from);
    expect({ issues: read.all, stillWriting: read.end.stillWriting }).toEqual({ issues: [], stillWriting: true });
    // A CR waiting for its LF, left alone: harmless, nothing to report or to look at again.
    const cr = await wentOn('\r', WRITE_SETTLE_MS + 60_000);
    expect(await readAll(cr.path, cr.from)).toEqual({ issues: [], end: { ...held, pendingBytes: 1, bytesRead: 1 } });
  });
});

it('takes a last write within the window as maybe going on; one long ago or far ahead as over', () => {
  const now = 1_000_000_000_000;
  const at = (ms: number) => mayStillBeWritten(now + ms, now);
  expect([at(0), at(-1000), at(1000), at(-WRITE_SETTLE_MS), at(WRITE_SETTLE_MS), at(3_600_000)]).toEqual([
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  expect(mayStillBeWritten(undefined, now)).toBe(true);
});
