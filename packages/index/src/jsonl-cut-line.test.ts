import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WRITE_SETTLE_MS } from '@agentdash/core';
import { dumpIndex } from '@agentdash/testing/dump';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

/** A real Claude Code 2.1.332 transcript (bundled), its last line cut at half its bytes, in a home of its own. */
const project = 'projects/-home-user-proj-shell';
const name = 'd3df38fe-7031-47e9-b89d-48c76aefbafe.jsonl';
const source = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../core/test/fixtures/claude-code/2.1.332/claude-home',
  project,
  name,
);
const whole = readFileSync(source);
const lastStart = whole.subarray(0, whole.length - 1).lastIndexOf(0x0a) + 1;
const half = Math.floor((whole.length - 1 - lastStart) / 2);
const lastLine = whole.subarray(0, lastStart).filter((byte) => byte === 0x0a).length + 1;

let dir: string;
let home: string;
let path: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cut-line-'));
  home = join(dir, '.claude');
  path = join(home, project, name);
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  vi.useRealTimers();
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The cut transcript, last written `ageMs` ago. */
function cutTranscript(ageMs: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, whole.subarray(0, lastStart + half));
  const written = (Date.now() - ageMs) / 1000;
  utimesSync(path, written, written);
}

const cutIssue = () => ({
  code: 'invalid_json',
  file: path,
  line: lastLine,
  message:
    `the last line ends before its record does (${half} bytes) and has not been written to for ` +
    `${WRITE_SETTLE_MS / 1000} s or more; it is read if it is finished later`,
});
const issuesOf = (ix: AgentIndex) =>
  ix.issues().map(({ code, file, line, message }) => ({ code, file, line, message }));

it('a last line cut short and left alone is reported once, on the first look', async () => {
  cutTranscript(WRITE_SETTLE_MS + 60_000);
  const first = await index.refresh([home]);
  expect({ issues: first.issues, stored: issuesOf(index) }).toEqual({ issues: 1, stored: [cutIssue()] });
  const second = await index.refresh([home]);
  expect({ parsed: second.filesParsed, issues: second.issues, stored: issuesOf(index) }).toEqual({
    parsed: 0,
    issues: 1,
    stored: [cutIssue()],
  });
  // Touched without a byte more: read again from the cut line, which is reported again, not twice.
  const later = (Date.now() - WRITE_SETTLE_MS - 30_000) / 1000;
  utimesSync(path, later, later);
  const third = await index.refresh([home]);
  expect({ parsed: third.filesParsed, stored: issuesOf(index) }).toEqual({ parsed: 1, stored: [cutIssue()] });
});

it('one caught mid-write is held back silently, and reported on a later look once left alone past the window', async () => {
  cutTranscript(1_000);
  await index.refresh([home]);
  expect(issuesOf(index)).toEqual([]);
  // The file is not touched again (the agent was killed): only the clock moves on.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + WRITE_SETTLE_MS);
  const second = await index.refresh([home]);
  expect({ parsed: second.filesParsed, stored: issuesOf(index) }).toEqual({ parsed: 1, stored: [cutIssue()] });
  // Then left as it is: a third look reads nothing and keeps the one issue.
  const third = await index.refresh([home]);
  expect({ parsed: third.filesParsed, stored: issuesOf(index) }).toEqual({ parsed: 0, stored: [cutIssue()] });
});

it('a reported cut line finished later is read, and its issue goes away', async () => {
  cutTranscript(WRITE_SETTLE_MS + 60_000);
  await index.refresh([home]);
  expect(issuesOf(index)).toEqual([cutIssue()]);
  appendFileSync(path, whole.subarray(lastStart + half));
  const report = await index.refresh([home]);
  expect({ parsed: report.filesParsed, issues: report.issues, stored: issuesOf(index) }).toEqual({
    parsed: 1,
    issues: 0,
    stored: [],
  });
  // Everything stored is what an index of the finished file holds.
  index.close();
  const batch = openIndex({ dbPath: join(dir, 'batch.sqlite') });
  await batch.refresh([home]);
  batch.close();
  const live = dumpIndex(join(dir, 'index.sqlite'));
  const fresh = dumpIndex(join(dir, 'batch.sqlite'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  expect(live).toEqual(fresh);
});
