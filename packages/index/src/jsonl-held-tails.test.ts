import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WRITE_SETTLE_MS } from '@agentdash/core';
import { dumpIndex } from '@agentdash/testing/dump';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

/** Real transcripts (bundled): one a reader takes on from its byte offset, one a reader replays from byte 0. */
const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures');
const agents = [
  {
    name: 'Claude Code 2.1.332',
    home: '.claude',
    file: 'projects/-home-user-proj-shell/d3df38fe-7031-47e9-b89d-48c76aefbafe.jsonl',
    from: 'claude-code/2.1.332/claude-home',
  },
  {
    name: 'Codex 0.171.0',
    home: 'codex-home',
    file: 'sessions/2026/11/29/rollout-2026-11-29T16-06-31-01a2280e-d9cd-7c81-b06f-060a94d2babd.jsonl',
    from: 'codex/0.171.0/codex-home',
  },
] as const;

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-held-tails-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  vi.useRealTimers();
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const writtenAgo = (path: string, ageMs: number) => {
  const written = (Date.now() - ageMs) / 1000;
  utimesSync(path, written, written);
};
const issuesOf = (ix: AgentIndex) => ix.issues().map(({ code, line }) => [code, line]);
const recordsOf = () => dumpIndex(join(dir, 'index.sqlite')).records;

describe.each(agents)('bytes after a last line read as complete JSON: $name', (agent) => {
  const whole = readFileSync(join(fixtures, agent.from, agent.file));
  const body = whole.subarray(0, whole.length - 1);
  const lastLine = body.filter((byte) => byte === 0x0a).length + 1;
  const home = () => join(dir, agent.home);
  const path = () => join(home(), agent.file);

  /** The transcript without its final newline, indexed; then ` trailing` written after it `ageMs` ago. */
  async function wentOn(ageMs: number) {
    mkdirSync(dirname(path()), { recursive: true });
    writeFileSync(path(), body);
    writtenAgo(path(), WRITE_SETTLE_MS + 60_000);
    await index.refresh([home()]);
    expect(issuesOf(index)).toEqual([]);
    const records = recordsOf();
    appendFileSync(path(), ' trailing');
    writtenAgo(path(), ageMs);
    return records;
  }

  it('left alone: reported once at that line, and its record is not read again when the line ends', async () => {
    const records = await wentOn(WRITE_SETTLE_MS + 60_000);
    const first = await index.refresh([home()]);
    expect({ parsed: first.filesParsed, stored: issuesOf(index) }).toEqual({
      parsed: 1,
      stored: [['invalid_json', lastLine]],
    });
    const second = await index.refresh([home()]);
    expect({ parsed: second.filesParsed, stored: issuesOf(index) }).toEqual({
      parsed: 0,
      stored: [['invalid_json', lastLine]],
    });
    // Touched without a byte more: not reported twice.
    writtenAgo(path(), WRITE_SETTLE_MS + 30_000);
    await index.refresh([home()]);
    expect(issuesOf(index)).toEqual([['invalid_json', lastLine]]);
    // Its newline comes at last: still the one issue, and the record read once.
    appendFileSync(path(), '\n');
    writtenAgo(path(), WRITE_SETTLE_MS + 10_000);
    await index.refresh([home()]);
    expect({ stored: issuesOf(index), records: recordsOf() }).toEqual({
      stored: [['invalid_json', lastLine]],
      records,
    });
  });

  it('caught while written: held back silently, reported on a later look once left alone', async () => {
    await wentOn(1_000);
    await index.refresh([home()]);
    expect(issuesOf(index)).toEqual([]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + WRITE_SETTLE_MS);
    const second = await index.refresh([home()]);
    expect({ parsed: second.filesParsed, stored: issuesOf(index) }).toEqual({
      parsed: 1,
      stored: [['invalid_json', lastLine]],
    });
    const third = await index.refresh([home()]);
    expect({ parsed: third.filesParsed, stored: issuesOf(index) }).toEqual({
      parsed: 0,
      stored: [['invalid_json', lastLine]],
    });
  });
});

describe('a last line over the length limit without its newline', () => {
  const agent = agents[0];
  const home = () => join(dir, agent.home);
  const path = () => join(home(), agent.file);
  const whole = readFileSync(join(fixtures, agent.from, agent.file));
  const tailLine = whole.filter((byte) => byte === 0x0a).length + 1;
  // readLines' default limit, passed by a byte: zeros (a sparse file, no memory), no newline.
  const limit = 128 * 1024 * 1024;

  it('left alone: reported at its line, and as any overlong line once its newline comes', async () => {
    mkdirSync(dirname(path()), { recursive: true });
    writeFileSync(path(), whole);
    truncateSync(path(), whole.length + limit + 1);
    writtenAgo(path(), WRITE_SETTLE_MS + 60_000);
    const first = await index.refresh([home()]);
    const held = {
      code: 'line_too_long',
      line: tailLine,
      message:
        `the last line is longer than ${limit} bytes (${limit + 1} so far) and was skipped; it has no newline and ` +
        `has not been written to for ${WRITE_SETTLE_MS / 1000} s or more`,
    };
    const stored = () => index.issues().map(({ code, line, message }) => ({ code, line, message }));
    expect({ parsed: first.filesParsed, stored: stored() }).toEqual({ parsed: 1, stored: [held] });
    const second = await index.refresh([home()]);
    expect({ parsed: second.filesParsed, stored: stored() }).toEqual({ parsed: 0, stored: [held] });
    appendFileSync(path(), '\n');
    await index.refresh([home()]);
    expect(stored()).toEqual([
      { code: 'line_too_long', line: tailLine, message: `line is longer than ${limit} bytes and was skipped` },
    ]);
  });
});
