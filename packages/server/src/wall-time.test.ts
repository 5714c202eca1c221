/**
 * One number per duration (issue 36, item 5): a session's wall time is its main thread's first to last timestamp,
 * the same in the sessions list (`durationMs`) and in the time bar (`time.wallMs`); "where the time went" ranks
 * projects by active time (wall less idle), so a fixture whose records span four months does not come first.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { copyOfIndex } from '@agentdash/testing/index-cache';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionsResponse, UsageResponse } from './api-types.js';
import { createApp } from './app.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
/** 5c0375b4 trimmed (its first and last lines) with the two 2.0.28 stub files of its folder, written days before. */
const bundledViewer = resolve(repoRoot, 'packages/core/test/fixtures/times/claude');
/** The CLI's trimmed odd wild transcripts: `agent-sessions-1/small.jsonl` spans 16 Dec 2025 to 16 Apr 2026. */
const bundledWild = resolve(repoRoot, 'packages/cli/test/fixtures/wild/claude-home');
const wildHome = resolve(repoRoot, '../shared/wild/claude-home');
/** Codex rollouts: 84b6da18 (August 2025) stamps only its header, so its records give no span. */
const codexTurns = resolve(repoRoot, 'packages/core/test/fixtures/codex/turns');
const HOST = { host: '127.0.0.1:4317' };

let tmp: string;
let index: AgentIndex;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'agentdash-wall-time-'));
  index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
});
afterEach(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

async function get<T>(paths: readonly string[], path: string): Promise<T> {
  await index.refresh(paths);
  const app = createApp({ index, paths, host: '127.0.0.1', port: 4317, assetsDir: tmp });
  const res = await app.request(path, { headers: HOST });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('a session has one wall time', () => {
  it('5c0375b4: the list says what the time bar says (143,428 ms, not 378,427,206)', async () => {
    const body = await get<SessionsResponse>([bundledViewer], '/api/sessions');
    const row = body.sessions.find((s) => s.id.startsWith('5c0375b4'));
    expect([row?.durationMs, row?.time?.wallMs]).toEqual([143_428, 143_428]);
  });

  it('sorting the list by time sorts by that figure', async () => {
    const body = await get<SessionsResponse>([bundledWild], '/api/sessions?sort=durationMs&dir=desc');
    const shown = body.sessions.map((s) => s.durationMs ?? -1);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(body.sessions.every((s) => s.durationMs === null || s.durationMs === s.time?.wallMs)).toBe(true);
  });

  it("a session without its main file: its files' first to last record (2,862 ms), not none", async () => {
    const body = await get<SessionsResponse>([bundledWild], '/api/sessions');
    const row = body.sessions.find((s) => s.id.startsWith('6c2214d7'));
    // 22:15:36.407 to 22:15:39.269, its subagent file's first and last records
    expect([row?.durationMs, row?.time?.wallMs]).toEqual([2862, 2862]);
  });

  it('84b6da18, whose records give no span: its wall time is unknown (null), never 0', async () => {
    const body = await get<SessionsResponse>([codexTurns], '/api/sessions');
    const row = body.sessions.find((s) => s.id.startsWith('84b6da18'));
    expect([row?.durationMs, row?.time?.wallMs]).toEqual([null, null]);
    const detail = await get<SessionDetail>([codexTurns], `/api/sessions/${row?.id}`);
    expect([detail.session.durationMs, detail.session.time?.wallMs]).toEqual([null, null]);
    // the others keep theirs, and the list's figure is the time bar's
    const known = body.sessions.filter((s) => s !== row);
    expect(known.length).toBe(2);
    for (const s of known) expect([s.durationMs, s.time?.wallMs]).toEqual([expect.any(Number), s.durationMs]);
  });

  const title = existsSync(wildHome)
    ? 'every wild session: the list and the time bar agree'
    : 'every wild session: the list and the time bar agree (skipped: ../shared/wild/claude-home is not present)';
  it.skipIf(!existsSync(wildHome))(title, async () => {
    // the run's index of the home (built once per run, as a cold refresh builds it; the CLI's wild suite reads the
    // same): `get`'s refresh finds nothing new
    index.close();
    await copyOfIndex([wildHome], join(tmp, 'wild.sqlite'));
    index = openIndex({ dbPath: join(tmp, 'wild.sqlite') });
    const body = await get<SessionsResponse>([wildHome], '/api/sessions?limit=1000');
    const disagree = body.sessions.filter((s) => s.durationMs !== null && s.durationMs !== s.time?.wallMs);
    // Before: 13 of 106 sessions disagreed (5c0375b4 by 4.4 days).
    expect(body.sessions.length).toBeGreaterThan(100);
    expect(disagree.map((s) => s.id)).toEqual([]);
  });
});

describe('where the time went ranks projects by active time', () => {
  it('a fixture spanning four months (16.8 s active) does not come first', async () => {
    const body = await get<UsageResponse>([bundledWild], '/api/usage');
    const projects = body.time.byProject;
    const small = projects.find((p) => p.wallMs > 100 * 86_400_000);
    expect(small?.project).toBe('/tmp');
    const active = projects.map((p) => p.wallMs - p.idleMs);
    expect(active).toEqual([...active].sort((a, b) => b - a));
    expect(projects[0]?.project).not.toBe('/tmp');
  });
});
