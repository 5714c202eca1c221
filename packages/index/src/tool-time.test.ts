/**
 * A call's wait for the person's approval is no tool time (issue 36, item 4): where the agent records the tool's own
 * run (Codex `Wall time`, `duration_seconds`) the rest of the call is a wait for the person, idle when longer than the
 * idle threshold; where it records none (Gemini), a call longer than that threshold is a wait as a whole. Checked on
 * the trimmed wild files bundled in `packages/core/test/fixtures/times/` and, when present, the whole wild homes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bundled = resolve(repoRoot, 'packages/core/test/fixtures/times');
const wildAgents = resolve(repoRoot, '../shared/wild-agents');
const crmAdmin = '019c6a7c-1e05-7150-ab4d-b906c0e13909';
const restoreCall = 'call_5q0ILNb79bjMdZsYRphrnL4v';
const h = 3_600_000;

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-tool-time-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const timeOf = (id: string) => index.listSessions({}).find((s) => s.id === id)?.time;
const sum = (t: { modelMs: number; toolMs: number; userMs: number; idleMs: number }) =>
  t.modelMs + t.toolMs + t.userMs + t.idleMs;

describe('a call approved hours later is not hours of tool time (bundled, trimmed wild files)', () => {
  it('Codex 019c6a7c: `dotnet restore` ran 3.2 s by its output; the 15 h 35 min before it are idle', async () => {
    await index.refresh([join(bundled, 'codex')]);
    const time = timeOf(crmAdmin);
    // Before: toolMs 56,311,868 (the approval counted as the tool's run) and idleMs 0.
    expect(time).toEqual({ wallMs: 59_315_898, modelMs: 3_004_030, toolMs: 177_057, userMs: 0, idleMs: 56_134_811 });
    expect(time && sum(time)).toBe(time?.wallMs);
    const restore = index.calls({ sessionId: crmAdmin }).find((c) => c.callId === restoreCall);
    expect(restore?.durationMs).toBe(3200);
  });

  it('Gemini 981c87cb: `write_file` approved after 15 min 42 s is idle, and has no duration of its own', async () => {
    await index.refresh([join(bundled, 'gemini')]);
    const [session] = index.listSessions({});
    // Before: toolMs 1,607,895 and idleMs 0; the 10 min 35 s of a cancelled interactive `python` stay tool time.
    expect(session?.time).toEqual({
      wallMs: 1_707_987,
      modelMs: 95_162,
      toolMs: 666_289,
      userMs: 4930,
      idleMs: 941_606,
    });
    const writes = index.calls({ tool: 'write_file' }).map((c) => c.durationMs);
    expect(writes).toEqual([46, undefined]); // newest first
  });
});

const crmHome = join(wildAgents, 'codex/crm-admin-1');
const parkingLot = join(wildAgents, 'codex/parking-lot-1');
const wildTitle = existsSync(wildAgents)
  ? 'tool time in the wild Codex homes'
  : 'tool time in the wild Codex homes (skipped: ../shared/wild-agents is not present)';
describe.skipIf(!existsSync(wildAgents))(wildTitle, () => {
  it('crm-admin 019c6a7c: 16 h of tools was 16 min of tools and 16 h of idle', async () => {
    await index.refresh([crmHome]);
    const time = timeOf(crmAdmin);
    // Before: toolMs 58,799,129 (16.3 h), idleMs 0.
    expect(time?.toolMs).toBeLessThan(0.5 * h);
    expect(time?.idleMs).toBeGreaterThan(15.5 * h);
    expect(time && sum(time)).toBe(time?.wallMs);
  });

  it('parking-lot 019af581: 169 shell calls written with their outputs ran for what their outputs report', async () => {
    await index.refresh([parkingLot]);
    const [session] = index.listSessions({});
    const calls = index.calls({});
    const reported = calls.reduce((n, c) => n + (c.durationMs ?? 0), 0);
    // a call whose output reports no run has no duration; the gap between its lines (a few ms) counts as its time
    const unreported = calls.filter((c) => c.durationMs === undefined).length;
    // Before: toolMs 10 (each call and its output share a millisecond or two).
    expect(session?.time?.toolMs).toBeGreaterThan(60_000);
    expect(session?.time?.toolMs).toBeLessThanOrEqual(reported + 5 * unreported);
  });
});
