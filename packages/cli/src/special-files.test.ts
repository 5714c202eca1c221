/**
 * Entries named like transcripts that are none (issue 36, item 3): a FIFO, a folder named `*.jsonl`, a symbolic link
 * that loops, one that dangles and one to `/dev/zero` are never opened, and `index --verbose` names each; a link to a
 * real transcript is read.
 */

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { SessionsJson } from './output/json-types.js';
import { run } from './run.js';

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-special-'));
  home = join(dir, 'home');
  cpSync(SAMPLES_HOME, home, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: join(dir, 'none') },
    homedir: join(dir, 'none'),
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite')], io);
  return { code, stdout, stderr };
}

describe('entries named like transcripts that are none', () => {
  it('are skipped and each is reported by index --verbose; a link to a transcript is read', async () => {
    const project = join(home, 'projects', '-home-user-proj-api');
    const sessions = async () =>
      (JSON.parse((await cli(['sessions', home, '--json'])).stdout) as SessionsJson).sessions;
    const before = (await sessions()).length;
    const fifo = join(project, 'fifo.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    mkdirSync(join(project, 'folder.jsonl'));
    symlinkSync('loop.jsonl', join(project, 'loop.jsonl'));
    symlinkSync(join(dir, 'nowhere.jsonl'), join(project, 'dangling.jsonl'));
    symlinkSync('/dev/zero', join(project, 'zero.jsonl'));
    const moved = join(dir, 'elsewhere.jsonl');
    cpSync(
      join(SAMPLES_HOME, 'projects', '-home-user-proj-files', '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc.jsonl'),
      moved,
    );
    symlinkSync(moved, join(project, 'linked.jsonl'));

    const verbose = await cli(['index', home, '--verbose']);
    expect(verbose.code).toBe(ExitCode.ok);
    const reported = verbose.stderr
      .split('\n')
      .filter((l) => l.includes(': unreadable_file: skipped: '))
      .map((l) => l.slice(project.length + 1).replace(dir, '<dir>'));
    expect(reported).toEqual([
      'dangling.jsonl:0: unreadable_file: skipped: a dangling symbolic link (to <dir>/nowhere.jsonl)',
      'fifo.jsonl:0: unreadable_file: skipped: a FIFO (named pipe), not a transcript file',
      'folder.jsonl:0: unreadable_file: skipped: a directory, not a transcript file',
      'loop.jsonl:0: unreadable_file: skipped: a symbolic link that loops',
      'zero.jsonl:0: unreadable_file: skipped: a symbolic link to a character device (/dev/zero), not a transcript file',
    ]);
    expect((await sessions()).map((s) => s.id)).toContain('linked');
    expect((await sessions()).length).toBe(before + 1);
  });
});

describe('a FIFO or a device named as SESSION', () => {
  it('is unreadable (exit 4) in show, export and archive forget, as in sessions: never "no session matches"', async () => {
    const fifo = join(dir, 'named-pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const argv of [
      ['show', fifo],
      ['show', '/dev/null', '--json'],
      ['export', '/dev/zero', '--format', 'json'],
      ['archive', 'forget', fifo],
      ['sessions', fifo],
    ]) {
      const r = await cli(argv);
      expect([argv.join(' '), r.code, r.stderr.trim()]).toEqual([
        argv.join(' '),
        ExitCode.unreadableFile,
        expect.stringMatching(/cannot read .*(named-pipe|dev\/null|dev\/zero).*(FIFO|character device)/),
      ]);
    }
  });
});
