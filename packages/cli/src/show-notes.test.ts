/**
 * `show` prints the notes the dashboard shows (core's `timelineShows`): a compaction, the summary it left, the slash
 * command that asked for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_SESSION, writeCommandSession } from '@agentdash/testing/command-records';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

/** The bundled session continued after `/compact` (Claude Code 2.1.330). */
const COMPACTED = '68c8b9d0';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-notes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function show(session = COMPACTED, home = SAMPLES_HOME): Promise<string[]> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: {},
    homedir: dir,
    now: Date.now,
  };
  const code = await run(['show', session, home, '--db', join(dir, `${session}.sqlite`)], io);
  expect(code, stderr).toBe(ExitCode.ok);
  return stdout.split('\n');
}

it('shows a compaction where it happened, as the dashboard does', async () => {
  const lines = await show();
  const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
  // Before: none of these three lines; the prompt after the compaction followed the reply before it.
  const boundary = at(/ · Context compacted: Conversation compacted$/);
  const summary = at(/ · Conversation compacted: This session is being continued from a previous conversation/);
  const command = at(/ · Command: \/compact$/);
  const after = at(/▶ Carry on after compaction\./);
  expect([boundary, summary, command].every((i) => i > 0)).toBe(true);
  expect(boundary < summary && summary < command && command < after).toBe(true);
});

it('shows a slash command Claude Code wrote as system records as the command typed, an empty output not at all', async () => {
  const home = join(dir, 'commands-home');
  writeCommandSession(home);
  // a note's line: its time, a dot, its label and text
  const notes = (await show(COMMAND_SESSION, home)).flatMap((line) => /^\s*[\d:]+\s+· (.*)$/.exec(line)?.[1] ?? []);
  expect(notes).toEqual([
    'Command: /remote-control',
    expect.stringMatching(/^bridge status: \/remote-control is active/),
    'Command: /resume',
    'Command output: Resume cancelled',
  ]);
});
