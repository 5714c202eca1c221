/**
 * `show`'s timeline as a user reads it (a review of the CLI over ../shared/wild): a failed request marked as one, the
 * thinking a client kept without its text, and the date where a session crosses midnight.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prompt, toolResult, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

const SESSION = '7d0c5a3e-1b2c-4d5e-8f90-a1b2c3d4e5f6';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-timeline-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One assistant record of response `id` at `at`, its blocks `content`, with what else the record says. */
function answer(uuid: string, parent: string, at: string, id: string, content: unknown[], more = {}): string {
  return JSON.stringify({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/user/proj/demo',
    sessionId: SESSION,
    version: '2.1.330',
    uuid,
    timestamp: at,
    type: 'assistant',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content,
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    ...more,
  });
}

async function show(command: readonly string[] = ['show']): Promise<string[]> {
  const home = join(dir, 'home');
  const project = join(home, 'projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  const base = (uuid: string, parentUuid: string | null, timestamp: string) => ({
    sessionId: SESSION,
    uuid,
    parentUuid,
    timestamp,
  });
  const unwritten = { type: 'thinking', thinking: '', signature: 'CAISabc' };
  writeLines(join(project, `${SESSION}.jsonl`), [
    prompt(base('u1', null, '2026-01-02T23:50:00.000Z'), 'Look at the logs.'),
    answer('a1', 'u1', '2026-01-02T23:50:05.000Z', 'msg_1', [unwritten]),
    answer('a2', 'a1', '2026-01-02T23:50:06.000Z', 'msg_1', [unwritten]),
    answer('a3', 'a2', '2026-01-02T23:50:07.000Z', 'msg_1', [{ type: 'text', text: 'The logs are clean.' }]),
    prompt(base('u2', 'a3', '2026-01-03T00:10:00.000Z'), 'Again, after midnight.'),
    answer(
      'a4',
      'u2',
      '2026-01-03T00:10:02.000Z',
      'msg_2',
      [{ type: 'text', text: 'Login expired · Please run /login' }],
      { isApiErrorMessage: true, error: 'authentication_failed' },
    ),
    // one response whose call was written after midnight: the call's line has its own day
    answer('a5', 'a4', '2026-01-03T23:59:58.000Z', 'msg_3', [{ type: 'text', text: 'Checking once more.' }]),
    answer('a6', 'a5', '2026-01-04T00:00:03.000Z', 'msg_3', [
      { type: 'tool_use', id: 'toolu_late', name: 'Bash', input: { command: 'date' } },
    ]),
    toolResult(base('r6', 'a6', '2026-01-04T00:00:04.000Z'), 'toolu_late', 'Sun Jan  4 00:00:04 UTC 2026', false),
    // a time that does not parse sets no day
    prompt(base('u3', 'r6', '[trimmed for fixture]'), 'A prompt of no time.'),
  ]);
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env: { TZ: 'UTC' },
    homedir: dir,
    now: () => Date.parse('2026-02-01T00:00:00Z'),
  };
  const code = await run([...command, SESSION.slice(0, 8), home, '--db', join(dir, 'index.sqlite')], io);
  expect(code, stderr).toBe(ExitCode.ok);
  return stdout.split('\n');
}

it('marks a failed request as one, says thinking without its text once, and dates the lines after midnight', async () => {
  const lines = await show();
  const timeline = lines.slice(lines.findIndex((l) => l.includes('▶ Look at the logs.')));
  expect(timeline.map((l) => l.trim()).filter((l) => l !== '')).toEqual([
    '23:50:00  ▶ Look at the logs.',
    // before: "∴ thinking (0 chars)" twice
    '23:50:05  ∴ (thinking, its text not recorded)',
    '23:50:05  ● The logs are clean.',
    // before: none (the next lines read as before the session's start)
    '── Jan 3 ──',
    '00:10:00  ▶ Again, after midnight.',
    // before: "● Login expired · Please run /login", an answer like any other
    '00:10:02  ! API error: Login expired · Please run /login',
    '23:59:58  ● Checking once more.',
    // before: none (the date went by each response's first record)
    '── Jan 4 ──',
    expect.stringMatching(/^00:00:03 {2}✓ Bash date/),
    // before: "── — ──" above it
    '--:--:--  ▶ A prompt of no time.',
  ]);
});

it('exports thinking without its text as a note, not an empty Thinking box (Markdown)', async () => {
  const markdown = (await show(['export', '--format', 'md'])).join('\n');
  // once for the response's two blocks, as `show` says it
  expect(markdown.split('*(thinking, its text not recorded)*').length - 1).toBe(1);
  expect(markdown).not.toContain('<summary>Thinking</summary>');
});
