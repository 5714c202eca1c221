import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/helpers.js';
import { adapterForFile } from '../agents/adapters.js';
import { describeScratch } from '../agents/conformance-shared.js';
import type { AgentId } from '../model/agent.js';
import type { ParseIssue } from '../model/issue.js';
import { type LineEvent, mayStillBeWritten, readLines, WRITE_SETTLE_MS } from './read-lines.js';

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

async function readAll(path: string) {
  const events: LineEvent[] = [];
  const end = await readLines(path, (event) => events.push(event));
  const issues = events.flatMap((e) => (e.kind === 'issue' ? [e.issue] : []));
  return { issues, end };
}

async function streamed(agent: AgentId, path: string) {
  const file = await describeScratch(adapterForFile({ agent }), path);
  const issues: ParseIssue[] = [];
  const end = await adapterForFile(file).streamRecords(file, (event) => {
    if (event.kind === 'issue') issues.push(event.issue);
  });
  return { issues: issues.filter((issue) => issue.message.startsWith('the last line')), end };
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
