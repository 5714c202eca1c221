/**
 * The bundled samples are a newcomer's first screen (issue 36): they read like real sessions. No recorder marker
 * (`[[rec:api-500]]`) in any file, so none in a title or a prompt; every model priced, so every session that had a
 * response has a cost; and they stay valid transcripts with their ids (28 sessions, no new problem in them).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { IndexJson, SessionsJson, UsageDailyJson } from './output/json-types.js';

let dir: string;
const cli = (args: readonly string[]) => runCli(args, { home: dir, db: join(dir, 'index.sqlite') });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-samples-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundled sample sessions', () => {
  it('say so in a --json document when they are read for want of an agent home, and only then', async () => {
    const fallback = JSON.parse((await cli(['sessions', '--json'])).stdout) as SessionsJson;
    const named = JSON.parse((await cli(['sessions', SAMPLES_HOME, '--json'])).stdout) as SessionsJson;
    const usage = JSON.parse((await cli(['usage', '--json'])).stdout) as UsageDailyJson & { samples?: true };
    expect([fallback.samples, fallback.sessions.length, named.samples, named.sessions.length, usage.samples]).toEqual([
      true,
      28,
      undefined,
      28,
      true,
    ]);
  });

  it('hold no recorder marker in any file', () => {
    const files = readdirSync(SAMPLES_HOME, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const marked = files
      .map((e) => join(e.parentPath, e.name))
      .filter((path) => /\[\[rec:/.test(readFileSync(path, 'utf8')));
    expect([files.length > 40, marked]).toEqual([true, []]);
  });

  it('are 28 sessions without a problem, titled without markers, every model priced', async () => {
    const index = JSON.parse((await cli(['index', SAMPLES_HOME, '--json'])).stdout) as IndexJson;
    const { sessions } = JSON.parse((await cli(['sessions', SAMPLES_HOME, '--json'])).stdout) as SessionsJson;
    const usage = JSON.parse((await cli(['usage', 'daily', SAMPLES_HOME, '--json'])).stdout) as UsageDailyJson;
    expect({ sessions: index.sessions, issues: index.issues }).toEqual({ sessions: 28, issues: 0 });
    expect(sessions.filter((s) => /\[\[|\]\]/.test(s.title ?? '')).map((s) => s.title)).toEqual([]);
    expect([usage.unpricedModels, usage.totals.costUsd !== null && usage.totals.costUsd > 0]).toEqual([[], true]);
    // A session whose every request failed (the API's 500 and 400 samples) has no response to price.
    const unpriced = sessions.filter((s) => s.costUsd === null || s.unpricedModels.length > 0);
    expect(unpriced.map((s) => s.usage.responses)).toEqual(unpriced.map(() => 0));
  });
});
