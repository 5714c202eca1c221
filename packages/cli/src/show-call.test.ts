/**
 * `show SESSION --call ID`: one call whole (a review of the CLI found no way to read a failed command's whole output
 * but `--json` or an export: `show` cuts each error at ~80 characters); a search hit names the call it found.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userSays, writeRollout } from '@agentdash/testing/codex-rollout';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { ExitCode } from './errors.js';

const SESSION = '5e5e5e5e-1111-4222-8333-444444444444';
const LONG = Array.from({ length: 40 }, (_, i) => `line ${i} of the test run's output \u001b[31mred\u001b[0m`).join(
  '\n',
);

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-show-call-'));
  home = join(dir, 'home');
  const project = join(home, 'projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  const b = basesOf(SESSION);
  writeLines(join(project, `${SESSION}.jsonl`), [
    prompt(b('p', null, 1), 'Run the tests.'),
    toolUse(b('c1', 'p', 2), 'msg_1', 'toolu_01AAAtests', 'Bash', { command: 'npm test', description: 'tests' }),
    toolResult(b('r1', 'c1', 9), 'toolu_01AAAtests', `Exit code 1\n${LONG}\nTESTS FAILED AT THE END`, true),
    toolUse(b('c2', 'r1', 10), 'msg_2', 'toolu_01AABread', 'Read', { file_path: '/home/user/proj/demo/a.ts' }),
    toolResult(b('r2', 'c2', 11), 'toolu_01AABread', '1\tconst a = 1;', false),
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, { home: dir, db: join(dir, 'index.sqlite') });

it('prints one call whole: its command, status, error class and every line it answered, terminal-safe', async () => {
  const r = await cli(['show', SESSION.slice(0, 8), home, '--call', 'toolu_01AAAtests']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^call +Bash toolu_01AAAtests$/m);
  expect(r.stdout).toMatch(/^status +error: exit-code, error, exit 1$/m);
  expect(r.stdout).toContain('npm test');
  // every line, each on its own
  expect(r.stdout).toMatch(/\nline 38 of the test run's output .*red.*\nline 39 /);
  expect(r.stdout).toContain('TESTS FAILED AT THE END');
  // the log's escape codes shown, not run
  expect(r.stdout).not.toContain('\u001b[31m');
  // a unique start of an id is enough; --json gives the call as `show --json` holds it
  const json = await cli(['show', SESSION.slice(0, 8), home, '--call', 'toolu_01AAB', '--json']);
  expect(JSON.parse(json.stdout)).toMatchObject({ id: 'toolu_01AABread', name: 'Read', status: 'ok' });
});

it('says which calls an id matches when it names none or several (exit 5, as an unknown session)', async () => {
  const none = await cli(['show', SESSION.slice(0, 8), home, '--call', 'toolu_zzz']);
  expect([none.code, none.stderr]).toEqual([
    ExitCode.unknownSession,
    expect.stringContaining('no call of this session'),
  ]);
  const several = await cli(['show', SESSION.slice(0, 8), home, '--call', 'toolu_01AA']);
  expect(several.code).toBe(ExitCode.unknownSession);
  expect(several.stderr).toContain('toolu_01AAAtests, toolu_01AABread');
});

it('names the call a search hit is in, which --call then opens', async () => {
  const r = await cli(['search', 'FAILED', home]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('toolu_01AAAtests');
});

it("keeps a Codex command's failure terminal-safe too (its error's words, made safe, not printed raw)", async () => {
  const home = join(dir, 'codex');
  writeRollout(home, '019a0000-1111-7222-8333-444444444444', [
    userSays(1, 'Build it.'),
    [
      2,
      'response_item',
      { type: 'function_call', name: 'shell', arguments: '{"command":["make"]}', call_id: 'call_esc' },
    ],
    [
      3,
      'response_item',
      {
        type: 'function_call_output',
        call_id: 'call_esc',
        output: 'Exit code: 3\nWall time: 0.1 seconds\nOutput:\n\u001b]0;pwned\u0007\u001b[2J\u001b[31mto-stdout\n',
      },
    ],
  ]);
  const r = await cli(['show', '019a0000', home, '--call', 'call_esc']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^status +error: exit-code, error, exit 3$/m);
  expect(r.stdout).toContain('to-stdout');
  // before: the error line under the result printed the window title and screen-clearing sequences raw
  expect(r.stdout.includes('\u001b') || r.stdout.includes('\u0007')).toBe(false);
});

it('refuses an empty id and --call beside --files or --versions (exit 2); several matches list them (--json)', async () => {
  const ref = SESSION.slice(0, 8);
  expect((await cli(['show', ref, home, '--call', ''])).code).toBe(ExitCode.badArguments);
  expect((await cli(['show', ref, home, '--call', 'toolu_01AAAtests', '--files'])).code).toBe(ExitCode.badArguments);
  const several = await cli(['show', ref, home, '--call', 'toolu_01AA', '--json']);
  expect(several.code).toBe(ExitCode.unknownSession);
  expect(JSON.parse(several.stdout || several.stderr)).toMatchObject({
    error: { kind: 'ambiguous-call', candidates: ['toolu_01AAAtests', 'toolu_01AABread'] },
  });
});
