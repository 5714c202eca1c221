/**
 * Failed requests and the client's waits to retry them are the model's time (core's `threadActivity`): in Claude Code
 * 2.1.330's api-retry session 3.7 s of them were the person's and a tool's, against the API's own clock in truth.jsonl
 * (found by a review helper). Checked against the corpus when present.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from '@agentdash/testing/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { openIndex } from './index.js';

const root = join(sharedDir, 'corpus/2.1.330');
const title = existsSync(root)
  ? "API errors and retries in the corpus's 2.1.330 api sessions"
  : "API errors and retries in the corpus's 2.1.330 api sessions (skipped: ../shared/corpus is not present)";

interface Attempt {
  readonly run: string;
  readonly receivedAt: string;
  readonly endAt: string;
  readonly messageId: string | null;
}

/**
 * The API's clock for a run: each chain of attempts, from the first one's receipt to the end of the one answered (or
 * of the last one, when none was).
 */
function servedWithRetries(attempts: readonly Attempt[]): number {
  let total = 0;
  let chainStart: number | undefined;
  let last: number | undefined;
  for (const a of attempts) {
    chainStart ??= Date.parse(a.receivedAt);
    last = Date.parse(a.endAt);
    if (a.messageId) {
      total += last - chainStart;
      chainStart = undefined;
    }
  }
  return total + (chainStart !== undefined && last !== undefined ? last - chainStart : 0);
}

describe.skipIf(!existsSync(root))(title, () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentdash-api-retry-'));
  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['api.1', 'Survive overloaded'],
    ['api.5', 'The server keeps failing'],
  ])('%s: model time is every attempt from the first failed one to the answer', async (run, titleStart) => {
    await index.refresh([join(root, 'claude-home/projects/-home-user-proj-api')]);
    const attempts = readFileSync(join(root, 'truth.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes(`"run":"${run}"`))
      .map((line) => JSON.parse(line) as Attempt);
    expect(attempts.some((a) => !a.messageId)).toBe(true);
    const served = servedWithRetries(attempts);
    const session = index.listSessions({}).find((s) => s.title?.startsWith(titleStart));
    // Before: api.1 1,880 ms of model time (the two answers alone), 2,310 ms the person's and 1,539 ms a tool's;
    // api.5 none, its 1,067 ms of wall all the person's.
    expect(Math.abs((session?.time?.modelMs ?? 0) - served)).toBeLessThan(60);
    expect(session?.time?.userMs).toBeLessThan(400);
  });
});
