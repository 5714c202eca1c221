/**
 * Paths the CLI cannot read. A command given no PATH over a Claude home with a part it cannot read (the project
 * folder it may not list, a `projects` that is no folder) reads the rest and says what it could not, as for a home
 * named as a PATH; it crashed with "internal error: EACCES" (exit 1). A folder or a FIFO named as PATH is exit 4
 * (it read as a folder without transcripts: "No sessions.", exit 0). A folder is unreadable to a user other than
 * root: as root the CLI runs as `nobody` (uid 65534), a process of its own.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bin } from '../test/harness.js';
import { SAMPLES_HOME } from './default-homes.js';

let dir: string;
const asRoot = process.getuid?.() === 0;
/**
 * As root, the folder made unreadable is readable to this process: the CLI then runs as `nobody`, when `nobody` can
 * run this Node and the CLI (not a Node unpacked in a private folder, as .ci/lts's is): else those cases are skipped.
 */
const asNobody = asRoot && spawnSync(process.execPath, [bin, '--version'], { uid: 65534, gid: 65534 }).status === 0;
const lockable = !asRoot || asNobody;
const lockedTitle = (title: string) =>
  lockable ? title : `${title} (skipped: as root, and nobody cannot run this Node.js, ${process.execPath})`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-unreadable-home-'));
  chmodSync(dir, 0o777);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `agentdash ARGS` with HOME at `home` (as `nobody` when this runs as root): its exit code and output. */
function agentdash(home: string, args: readonly string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: home, TZ: 'UTC' },
      ...(asNobody ? { uid: 65534, gid: 65534 } : {}),
    });
    child.on('error', (error) => resolve({ code: null, stdout: '', stderr: String(error) }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A home whose `projects` holds one sample session and `extra` (a folder it may not list, a file…). */
function home(name: string, extra: (projects: string) => void): string {
  const root = join(dir, name);
  const projects = join(root, '.claude', 'projects');
  mkdirSync(join(projects, '-home-user-proj-ok'), { recursive: true });
  copyFileSync(
    join(SAMPLES_HOME, 'projects', '-home-user-proj-extras', 'cd11f12b-b0ad-4540-90e3-b4254028db1f.jsonl'),
    join(projects, '-home-user-proj-ok', 'cd11f12b-b0ad-4540-90e3-b4254028db1f.jsonl'),
  );
  extra(projects);
  for (const path of [root, join(root, '.claude'), projects, join(projects, '-home-user-proj-ok')]) {
    chmodSync(path, 0o755);
  }
  return root;
}

it.skipIf(!lockable)(
  lockedTitle('reads the rest of the home when a project folder cannot be listed, and says so'),
  async () => {
    const root = home('locked', (projects) => {
      mkdirSync(join(projects, '-home-user-proj-locked'));
      chmodSync(join(projects, '-home-user-proj-locked'), 0o000);
    });
    const out = await agentdash(root, ['sessions', '--json', '--db', join(dir, 'locked.sqlite')]);
    expect(out.stderr).not.toContain('internal error');
    expect(out.code, out.stderr).toBe(0);
    const { sessions } = JSON.parse(out.stdout) as { sessions: { id: string }[] };
    expect(sessions.map((s) => s.id)).toEqual(['cd11f12b-b0ad-4540-90e3-b4254028db1f']);
    // the terminal's output says what it could not read (`--json` keeps its stderr for errors)
    const text = await agentdash(root, ['sessions', '--db', join(dir, 'locked.sqlite')]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toMatch(/1 file or folder cannot be read/);
  },
);

it('answers with no sessions when `projects` is a file, never an internal error', async () => {
  const root = join(dir, 'file');
  mkdirSync(join(root, '.claude'), { recursive: true });
  writeFileSync(join(root, '.claude', 'projects'), 'not a folder');
  chmodSync(root, 0o755);
  chmodSync(join(root, '.claude'), 0o755);
  const out = await agentdash(root, ['sessions', '--json', '--db', join(dir, 'file.sqlite')]);
  expect(out.stderr).not.toContain('internal error');
  expect(out.code, out.stderr).toBe(0);
  expect(JSON.parse(out.stdout)).toEqual({ sessions: [], truncated: false });
});

it.skipIf(!lockable)(
  lockedTitle('refuses a folder named as PATH that it may not list, and a FIFO: exit 4, never "No sessions."'),
  async () => {
    const root = home('named', (projects) => {
      mkdirSync(join(projects, '-home-user-proj-locked'));
      chmodSync(join(projects, '-home-user-proj-locked'), 0o000);
      execFileSync('mkfifo', [join(projects, '-home-user-proj-ok', 'pipe.jsonl')]);
    });
    const projects = join(root, '.claude', 'projects');
    const locked = await agentdash(root, [
      'sessions',
      join(projects, '-home-user-proj-locked'),
      '--db',
      join(dir, 'n.db'),
    ]);
    expect([locked.code, locked.stdout]).toEqual([4, '']);
    expect(locked.stderr).toMatch(/^agentdash: cannot read .*-home-user-proj-locked: .*permission denied/);
    const fifo = await agentdash(root, [
      'sessions',
      join(projects, '-home-user-proj-ok', 'pipe.jsonl'),
      '--db',
      join(dir, 'n.db'),
    ]);
    expect([fifo.code, fifo.stdout]).toEqual([4, '']);
    expect(fifo.stderr).toMatch(/cannot read .*pipe\.jsonl: is a FIFO, not a transcript file or folder/);
  },
);
