import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WRITE_SETTLE_MS } from '@agentdash/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

/** A real Gemini 0.20.2 session document (bundled), cut at half its bytes into a home of its own. */
const chats = 'tmp/6c8e5834e9089896c09e0efc10c518ca552d8e8c9fabe86bf4531e7dbfdb5d42/chats';
const name = 'session-2026-11-23T00-27-ae75b182.json';
const source = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/gemini/0.20.2/.gemini');

let dir: string;
let home: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-gemini-held-'));
  home = join(dir, '.gemini');
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The cut document, last written `ageMs` ago; its path and size. */
function cutDocument(ageMs: number): { path: string; bytes: number } {
  const whole = readFileSync(join(source, chats, name));
  const path = join(home, chats, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
  const written = (Date.now() - ageMs) / 1000;
  utimesSync(path, written, written);
  return { path, bytes: Math.floor(whole.length / 2) };
}

const truncated = (path: string, bytes: number) => ({
  code: 'invalid_json',
  file: path,
  line: 1,
  message:
    `truncated: the session document ends before its JSON does (${bytes} bytes) and has not been written to ` +
    `for ${WRITE_SETTLE_MS / 1000} s or more; not read`,
});
const issuesOf = (ix: AgentIndex) =>
  ix.issues().map(({ code, file, line, message }) => ({ code, file, line, message }));

it('a 0.20 document cut short and left alone is reported on the first look', async () => {
  const { path, bytes } = cutDocument(WRITE_SETTLE_MS + 60_000);
  const report = await index.refresh([home]);
  expect({ issues: report.issues, stored: issuesOf(index) }).toEqual({ issues: 1, stored: [truncated(path, bytes)] });
});

it('one caught mid-rewrite is held back, and reported on a later look once it has not changed past the window', async () => {
  const { path, bytes } = cutDocument(WRITE_SETTLE_MS - 800);
  await index.refresh([home]);
  expect(issuesOf(index)).toEqual([]);
  // The file is not touched again: the client that was writing it stopped (killed, disk full).
  await new Promise((done) => setTimeout(done, 1_000));
  await index.refresh([home]);
  expect(issuesOf(index)).toEqual([truncated(path, bytes)]);
  // Then left as it is: a third look reads nothing again and keeps the issue.
  const third = await index.refresh([home]);
  expect({ parsed: third.filesParsed, stored: issuesOf(index) }).toEqual({
    parsed: 0,
    stored: [truncated(path, bytes)],
  });
});
