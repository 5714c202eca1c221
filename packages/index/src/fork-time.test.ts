/**
 * A fork's or a resume's time is its own: Claude Code 2.x copies the earlier conversation into the new session's file
 * with the records' first timestamps, so the copies spanned the earlier session's time again (the corpus's 2.1.330
 * fork `9eccf676`: 10.4 s of wall and 6,303 ms of model time, against the 2,016 ms its two responses were served).
 * Its cost already counted those responses for the session that owns them; its time now leaves them out too.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from '@agentdash/testing/shared';
import { writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { earlierTurns, forkTurns } from '../test/forks.js';
import { type AgentIndex, openIndex } from './index.js';

const ORIGINAL = 'aaaaaaaa-0000-4000-8000-00000000f0a1';
const FORK = 'bbbbbbbb-0000-4000-8000-00000000f0a2';

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-fork-time-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const history = (session: string) => earlierTurns(session, 'fork');
const fork = () => forkTurns(FORK, 'fork');

const timeOf = (id: string) => index.listSessions({}).find((s) => s.id === id);
const project = () => join(dir, 'home', 'projects', '-home-user-proj-demo');

describe("a fork's time is the time of its own records", () => {
  it('both files read at once: the fork 3 s (its prompt to its answer), the original 20 s', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    expect(timeOf(FORK)?.time).toEqual({ wallMs: 3000, modelMs: 3000, toolMs: 0, userMs: 0, idleMs: 0 });
    expect(timeOf(FORK)?.durationMs).toBe(3000);
    expect(timeOf(ORIGINAL)?.time).toMatchObject({ wallMs: 20_000, modelMs: 15_000 });
  });

  it('the fork read first, its original later: the fork is cut when its original arrives', async () => {
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    // Alone, the fork owns the whole conversation it holds.
    expect(timeOf(FORK)?.time?.wallMs).toBe(43_000);
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    await index.refresh([join(dir, 'home')]);
    expect(timeOf(FORK)?.time).toEqual({ wallMs: 3000, modelMs: 3000, toolMs: 0, userMs: 0, idleMs: 0 });
  });

  it('its original deleted and forgotten: the fork owns the whole conversation again, its time too', async () => {
    writeLines(join(project(), `${ORIGINAL}.jsonl`), history(ORIGINAL));
    writeLines(join(project(), `${FORK}.jsonl`), fork());
    await index.refresh([join(dir, 'home')]);
    expect(timeOf(FORK)?.time?.wallMs).toBe(3000);
    rmSync(join(project(), `${ORIGINAL}.jsonl`));
    await index.refresh([join(dir, 'home')]);
    // Kept in the archive: still the original's.
    expect(timeOf(FORK)?.time?.wallMs).toBe(3000);
    await index.forgetSession(ORIGINAL);
    expect(timeOf(ORIGINAL)).toBeUndefined();
    expect(timeOf(FORK)?.time).toEqual({ wallMs: 43_000, modelMs: 18_000, toolMs: 0, userMs: 25_000, idleMs: 0 });
    expect(timeOf(FORK)?.usage.responses).toBe(3);
  });
});

const continuation = join(sharedDir, 'corpus/2.1.330/claude-home/projects/-home-user-proj-continuation');
const truth = join(sharedDir, 'corpus/2.1.330/truth.jsonl');
const corpusTitle = existsSync(continuation)
  ? "the corpus's 2.1.330 fork"
  : "the corpus's 2.1.330 fork (skipped: ../shared/corpus is not present)";
describe.skipIf(!existsSync(continuation))(corpusTitle, () => {
  it("9eccf676's model time is what its two responses were served, from receipt to their last byte", async () => {
    await index.refresh([continuation]);
    const served = readFileSync(truth, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"run":"continuation.3"'))
      .map((line) => JSON.parse(line) as { receivedAt: string; endAt: string; messageId: string })
      .filter((r) => r.messageId === 'msg_0177mrLfrOtMHO2vFbOxN0In' || r.messageId === 'msg_01PQOTK18mrpFg9FHJE89yaT')
      .reduce((sum, r) => sum + Date.parse(r.endAt) - Date.parse(r.receivedAt), 0);
    expect(served).toBe(2016);
    const fork = index.listSessions({}).find((s) => s.id.startsWith('9eccf676'));
    // Before: 6,303 ms of model time in 10,358 ms of wall.
    expect(Math.abs((fork?.time?.modelMs ?? 0) - served)).toBeLessThan(50);
    expect(fork?.time?.wallMs).toBeLessThan(2500);
  });
});
