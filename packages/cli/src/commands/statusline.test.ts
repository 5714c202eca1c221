import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DERIVED_VERSION } from '@agentdash/index';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { assistantText, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import type { StatuslineJson } from '../output/json-types.js';
import { run } from '../run.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Two sessions of 21 Nov 2026, 10:00–11:00 UTC (see packages/core/test/fixtures/usage). */
const fixtureProject = join(repoRoot, 'packages/core/test/fixtures/usage/projects/-home-user-proj-usage');
const now = Date.parse('2026-11-21T12:30:00Z');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-statusline-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `agentdash statusline ARGS --db DB` in-process, given what Claude Code passes on stdin; its output captured. */
async function runStatusline(args: readonly string[], db: string, input: Record<string, string | undefined>, at = now) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 160 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
    homedir: dir,
    now: () => at,
    readStdin: async () => JSON.stringify(input),
  };
  const code = await run(['statusline', ...args, '--db', join(dir, db)], io);
  return { code, stdout, stderr };
}

async function statusline(transcriptPath: string, db: string, sessionId?: string, at = now): Promise<StatuslineJson> {
  const { code, stdout, stderr } = await runStatusline(
    ['--json'],
    db,
    { session_id: sessionId, transcript_path: transcriptPath },
    at,
  );
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(stdout) as StatuslineJson;
}

describe('agentdash statusline', () => {
  it('refreshes the projects folder of a transcript in one', async () => {
    const projects = join(dir, 'home', 'projects');
    cpSync(fixtureProject, join(projects, 'p'), { recursive: true });
    const out = await statusline(join(projects, 'p', 'new-session.jsonl'), 'home.sqlite');
    expect(out.todayCostUsd).toBeGreaterThan(0);
  });

  it("names the transcript's session when its id is also another home's", async () => {
    const id = '7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22';
    const homes = ['a', 'b'].map((name) => join(dir, 'twins', name, 'projects'));
    for (const projects of homes) cpSync(fixtureProject, join(projects, 'p'), { recursive: true });
    const transcript = (projects: string | undefined) => join(projects ?? '', 'p', `${id}.jsonl`);
    // b's copy is cut short, and b lacks the session it was resumed from (which would own its copied response):
    // the two sessions of one id cost differently
    const lines = readFileSync(transcript(homes[1]), 'utf8').split('\n');
    writeFileSync(transcript(homes[1]), `${lines.slice(0, 2).join('\n')}\n`);
    rmSync(join(homes[1] ?? '', 'p', '5d1f6c2a-0b6e-4f7e-9a51-2f0c3a9d8e11.jsonl'));
    await statusline(transcript(homes[0]), 'twins.sqlite', id);
    const b = await statusline(transcript(homes[1]), 'twins.sqlite', id);
    const a = await statusline(transcript(homes[0]), 'twins.sqlite', id);
    // the id alone matches both sessions now (it failed with "matches 2 sessions"): each path picks its own
    expect([a.sessionId, b.sessionId]).toEqual([id, id]);
    expect(b.sessionCostUsd).toBeGreaterThan(0);
    expect(a.sessionCostUsd).toBeGreaterThan(0);
    expect(Math.abs((a.sessionCostUsd ?? 0) - (b.sessionCostUsd ?? 0))).toBeGreaterThan(1e-4);
  });

  it('says "session cost unknown" for a model without a price, never "unknown session"', async () => {
    const projects = join(dir, 'unpriced', 'projects');
    cpSync(fixtureProject, join(projects, 'p'), { recursive: true });
    const file = join(projects, 'p', '7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('claude-sonnet-4-5-20250929', 'claude-unpriced-9'));
    const out = await statusline(file, 'unpriced.sqlite', '7e2a9b4c-1d3f-4a6b-8c7d-3e1f5a2b9c22');
    expect(out.sessionCostUsd).toBeNull();
    expect(out.line).toMatch(/^session cost unknown \([\d.]+k? tokens\) · /);
  });

  it('refreshes nothing for a transcript outside a projects folder (its grandparent holds unrelated transcripts)', async () => {
    const scratch = join(dir, 'scratch');
    cpSync(fixtureProject, join(scratch, 'unrelated'), { recursive: true });
    const out = await statusline(join(scratch, 'nowhere', 'x.jsonl'), 'scratch.sqlite');
    expect(out).toEqual({ sessionCostUsd: null, sessionTokens: 0, todayCostUsd: 0, line: '$0.00 today' });
  });
});

describe("the status line's block", () => {
  it("is the account's running block when the run of responses began the day before (no gap of 5 hours since)", async () => {
    // a response every 30 minutes from 20:00 UTC to 21:30 the next day: blocks 20:00, 01:00, 06:00, 11:00, 16:00 and
    // 21:00 (a block starts 5 hours after the last one started); read from midnight, they would start at 00:00 and
    // the running one at 20:00, ending at 01:00 with 3 hours left instead of 4
    const session = 'b10c4a1e-0000-4000-8000-000000000001';
    const lines: string[] = [];
    const start = Date.parse('2026-11-20T20:00:00Z');
    for (let i = 0; start + i * 1_800_000 <= Date.parse('2026-11-21T21:30:00Z'); i++) {
      const base = (uuid: string, parentUuid: string | null, ms: number) => ({
        sessionId: session,
        uuid,
        parentUuid,
        timestamp: new Date(ms).toISOString(),
      });
      const t = start + i * 1_800_000;
      lines.push(prompt(base(`u${i}`, i === 0 ? null : `a${i - 1}`, t), `step ${i}`));
      lines.push(assistantText(base(`a${i}`, `u${i}`, t + 5_000), `msg_${i}`, `done ${i}`));
    }
    const transcript = join(dir, 'chain', 'projects', 'p', `${session}.jsonl`);
    writeLines(transcript, lines);
    const at = Date.parse('2026-11-21T22:00:00Z');
    const out = await statusline(transcript, 'chain.sqlite', session, at);
    expect(out.block?.end).toBe('2026-11-22T02:00:00.000Z');
    expect(out.block?.remainingMs).toBe(4 * 3_600_000);
    const { stdout } = await runStatusline([], 'chain.sqlite', { transcript_path: transcript }, at);
    expect(stdout).toContain(' · block cost unknown, 4h 0m left\n');
  });
});

describe('a status line that cannot be drawn', () => {
  it('says why in one short line on standard output (Claude Code shows only that), the whole message on stderr', async () => {
    const projects = join(dir, 'newer', 'projects');
    cpSync(fixtureProject, join(projects, 'p'), { recursive: true });
    const transcript = join(projects, 'p', 'new-session.jsonl');
    await statusline(transcript, 'newer.sqlite');
    markDerivedVersion(join(dir, 'newer.sqlite'), DERIVED_VERSION + 1);
    const { code, stdout, stderr } = await runStatusline([], 'newer.sqlite', { transcript_path: transcript });
    expect(code).toBe(ExitCode.badPath);
    expect(stdout).toBe('agentdash: the index is a newer AgentDash’s (upgrade, or agentdash index --rebuild)\n');
    expect(stderr).toContain('was built by a newer AgentDash');
  });
});
