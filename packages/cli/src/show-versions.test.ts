/**
 * `show --versions`, `show --partial` and `export --partial` over a real index whose transcript was cut short on
 * disk: the session shows its last complete version, says a newer partial copy is kept, and shows that copy on asking.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '@agentdash/core';
import { formatBytes } from '@agentdash/core/present';
import type { SessionVersions } from '@agentdash/index';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';

let dir: string;
let claudeHome: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-versions-'));
  claudeHome = join(dir, '.claude');
  cpSync(SAMPLES_HOME, claudeHome, { recursive: true });
  file = join(claudeHome, 'projects', '-home-user-proj-files', `${SESSION}.jsonl`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    homedir: dir,
    now: Date.now,
  };
  const code = await run([...args, '--db', join(dir, 'index.sqlite'), '--no-progress'], io);
  return { code, stdout, stderr };
}

async function json<T>(args: readonly string[]): Promise<T> {
  const r = await cli([...args, '--json']);
  expect(r.code, r.stderr).toBe(ExitCode.ok);
  return JSON.parse(r.stdout) as T;
}

/** Cut the transcript after the line ending nearest a third of it; returns how many lines are left. */
function truncateToAThird(): { size: number; cut: number; lines: number } {
  const bytes = readFileSync(file);
  const cut = bytes.subarray(0, Math.floor(bytes.length / 3)).lastIndexOf(0x0a) + 1;
  truncateSync(file, cut);
  return { size: bytes.length, cut, lines: bytes.subarray(0, cut).toString('utf8').split('\n').filter(Boolean).length };
}

describe('a transcript cut short on disk', () => {
  it('shows the complete version, lists the partial copy, and shows or exports it on asking', async () => {
    const complete = await json<Session>(['show', SESSION]);
    expect(await json<SessionVersions>(['show', SESSION, '--versions'])).toEqual({ sessionId: SESSION, held: [] });
    const refused = await cli(['show', SESSION, '--partial']);
    expect([refused.code, refused.stderr]).toEqual([
      ExitCode.badArguments,
      `agentdash: session ${SESSION} has no newer partial copy: every file of it is shown as it is\n`,
    ]);

    const { size, cut, lines } = truncateToAThird();
    expect(await json<Session>(['show', SESSION])).toEqual(complete);
    const versions = await json<SessionVersions>(['show', SESSION, '--versions']);
    expect(versions.held.map((h) => [h.path, h.role, h.complete.records, h.partial.bytes, h.partial.records])).toEqual([
      [file, 'main', complete.counts.records, cut, lines],
    ]);
    expect(versions.held[0]?.partial.reason).toMatch(/^shrank from \d+ to \d+ bytes and lost \d+ of its \d+ records/);

    const partial = await json<Session>(['show', SESSION, '--partial']);
    expect(partial.counts.records).toBe(lines);
    expect(partial.calls.map((c) => c.id)).toEqual(complete.calls.slice(0, partial.calls.length).map((c) => c.id));
    expect(partial.calls.length).toBeLessThan(complete.calls.length);

    const text = await cli(['show', SESSION]);
    expect(text.code).toBe(ExitCode.ok);
    const notice = text.stdout.split('\n').filter((l) => l.startsWith('partial') || l.includes('--partial shows it'));
    expect(notice).toEqual([
      `partial  ${file}: a newer partial copy is kept (${formatBytes(cut)}, ${lines} records; shown: ${formatBytes(size)}, ${complete.counts.records} records): ${versions.held[0]?.partial.reason}`,
      `         agentdash show ${SESSION} --partial shows it`,
    ]);

    const exported = await cli(['export', SESSION, '--format', 'envelope', '--partial', '--no-redact']);
    expect(exported.code, exported.stderr).toBe(ExitCode.ok);
    expect(
      exported.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(partial.calls.map((c) => c.id));
  });
});
