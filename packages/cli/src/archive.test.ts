import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { ArchiveForgetJson, ArchiveJson, IndexJson, SessionsJson } from './output/json-types.js';
import { run } from './run.js';

let dir: string;
let claudeHome: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-archive-'));
  claudeHome = join(dir, '.claude');
  cpSync(SAMPLES_HOME, claudeHome, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  return { code, stdout, stderr };
}
async function json<T>(args: readonly string[]): Promise<T> {
  const r = await cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(ExitCode.ok);
  return JSON.parse(r.stdout) as T;
}

describe('archive', () => {
  it('sessions whose files Claude Code deleted stay listed as archived, and show and export still work', async () => {
    const before = await json<SessionsJson>(['sessions']);
    const showBefore = await cli(['show', before.sessions[0]?.id ?? '', '--json']);
    expect(before.sessions.every((s) => !s.archived)).toBe(true);

    rmSync(join(claudeHome, 'projects'), { recursive: true });
    mkdirSync(join(claudeHome, 'projects'));
    const after = await json<SessionsJson>(['sessions']);
    expect(after.sessions.map((s) => s.id)).toEqual(before.sessions.map((s) => s.id));
    expect(after.sessions.every((s) => s.archived)).toBe(true);
    const showAfter = await cli(['show', before.sessions[0]?.id ?? '', '--json']);
    expect(showAfter.code).toBe(ExitCode.ok);
    expect(JSON.parse(showAfter.stdout)).toEqual(JSON.parse(showBefore.stdout));
    // The text says so too (before: only --json's `archived` did): the list marks each, and `show` in its header.
    const listed = (await cli(['sessions'])).stdout;
    expect(listed.split('\n').filter((line) => line.includes(' (archived)'))).toHaveLength(after.sessions.length);
    expect(listed).toContain(`; ${after.sessions.length} archived (gone from disk, kept in the index's archive)\n`);
    const shown = (await cli(['show', before.sessions[0]?.id ?? ''])).stdout;
    expect(shown).toContain("archived its transcripts are gone from disk: shown from the index's archive");
    const md = await cli(['export', before.sessions[0]?.id ?? '', '--format', 'markdown']);
    expect(md.code).toBe(ExitCode.ok);
    expect(md.stdout.length).toBeGreaterThan(100);

    const forgotten = await json<ArchiveForgetJson>(['archive', 'forget', before.sessions[0]?.id ?? '']);
    expect(forgotten).toMatchObject({ session: before.sessions[0]?.id, stillIndexed: false });
    expect(forgotten.bytes).toBeGreaterThan(0);
    const left = await json<SessionsJson>(['sessions']);
    expect(left.sessions.map((s) => s.id)).toEqual(before.sessions.slice(1).map((s) => s.id));
  });

  it('archive off is stored; --no-archive skips one run; status reports what is kept', async () => {
    const off = await json<ArchiveJson>(['archive', 'off']);
    expect(off).toMatchObject({ enabled: false, files: 0, bytes: 0 });
    const indexed = await json<IndexJson>(['index']);
    expect(indexed.archive).toMatchObject({ enabled: false, files: 0 });
    const on = await json<ArchiveJson>(['archive', 'on']);
    expect(on.enabled).toBe(true);
    const once = await json<IndexJson>(['index', '--no-archive']);
    expect(once.archive).toMatchObject({ enabled: false, files: 0 });
    // Status refreshes first: with --no-archive, that refresh keeps nothing either.
    const status = await json<ArchiveJson>(['archive', '--no-archive']);
    expect(status.files).toBe(0);
    const archived = await json<IndexJson>(['index']);
    expect(archived.archive.files).toBe(archived.files);
    expect(archived.archive.storedBytes).toBeLessThan(archived.archive.bytes / 4);
    expect((await cli(['archive', 'sideways'])).code).toBe(ExitCode.badArguments);
  });

  it('status refreshes first, as every other command does: a transcript written since is counted', async () => {
    const indexed = await json<IndexJson>(['index']);
    const before = await json<ArchiveJson>(['archive', 'status']);
    expect(before.files).toBe(indexed.files);
    // A new session in a project folder of the home: a copy of a real transcript under a new id.
    const [project] = readdirSync(join(claudeHome, 'projects'));
    const folder = join(claudeHome, 'projects', project ?? '');
    const [transcript] = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
    copyFileSync(join(folder, transcript ?? ''), join(folder, '0e2f3c1a-5b6d-4e7f-8a9b-0c1d2e3f4a5b.jsonl'));
    const after = await json<ArchiveJson>(['archive', 'status']);
    expect(after.files).toBe(before.files + 1);
    expect(after.bytes).toBeGreaterThan(before.bytes);
    // The plain form (no action) is the same status.
    expect(await json<ArchiveJson>(['archive'])).toEqual(after);
  });

  it("tells once that Claude Code's cleanup is active, from its settings.json, and how to change it", async () => {
    const first = await cli(['index']);
    // a note, on stderr: standard output holds the report alone (`index > report.txt`)
    expect(first.stderr).toMatch(/Claude Code deletes transcripts untouched for 30 days \(cleanupPeriodDays not set/);
    expect(first.stderr).toMatch(/"cleanupPeriodDays": 36500/);
    expect(first.stdout).not.toMatch(/Claude Code deletes/);
    const second = await cli(['index']);
    expect(second.stderr).not.toMatch(/Claude Code deletes/);
    expect((await json<IndexJson>(['index'])).claudeCleanup).toEqual({
      settingsPath: join(claudeHome, 'settings.json'),
      effectiveDays: 30,
      active: true,
    });
    writeFileSync(join(claudeHome, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 3650 }));
    expect((await json<IndexJson>(['index'])).claudeCleanup).toMatchObject({ cleanupPeriodDays: 3650, active: false });
  });

  it("says nothing of Claude Code's cleanup when only other agents' homes are read, though a Claude home exists", async () => {
    const fixtures = join(SAMPLES_HOME, '../../../core/test/fixtures');
    for (const home of ['codex/0.169.0/codex-home', 'gemini/0.61.0/.gemini']) {
      const r = await cli(['index', join(fixtures, home)]);
      // Before: "Claude Code deletes transcripts … so those sessions stay here" after a Codex or Gemini home.
      expect([home, r.code, /Claude Code deletes/.test(r.stdout + r.stderr)]).toEqual([home, 0, false]);
    }
    // and it is still due for a folder of Claude Code's home read
    const project = join(claudeHome, 'projects', readdirSync(join(claudeHome, 'projects'))[0] as string);
    expect((await cli(['index', project])).stderr).toMatch(/Claude Code deletes transcripts/);
  });

  it("says nothing of Claude Code's cleanup on a machine without a Claude home", async () => {
    rmSync(claudeHome, { recursive: true, force: true });
    const codex = join(SAMPLES_HOME, '../../../core/test/fixtures/codex/0.171.0/codex-home');
    const first = await cli(['index', codex]);
    expect(first.stdout).toMatch(/^[\d,]+ files, [1-9][\d,]* sessions;/);
    expect(first.stdout + first.stderr).not.toMatch(/Claude Code deletes/);
    // and the notice is still due once there is one
    cpSync(SAMPLES_HOME, claudeHome, { recursive: true });
    expect((await cli(['index'])).stderr).toMatch(/Claude Code deletes transcripts/);
  });
});
