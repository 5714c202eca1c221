/**
 * A command's arguments are checked before anything is read or written: a bad option is said in one line (exit 2),
 * with no index database made, no transcript indexed and no note of the homes or samples it would have read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { runCli } from '../test/harness.js';
import { ExitCode } from './errors.js';
import { run } from './run.js';

const sb = cliSandbox('agentdash-args-first-');

const badArguments: readonly (readonly string[])[] = [
  ['sessions', '--since', 'yesterday'],
  ['sessions', '--json', '--since', 'yesterday'],
  ['sessions', '--limit=-3'],
  // an age past the earliest date a JavaScript Date holds: was "internal error: Invalid time value" (exit 1)
  ['sessions', '--since', '999999999d'],
  ['stats', '--json', '--until', '99999999999w'],
  // an empty value (an unset shell variable): was read as no value given, or as a path (`--db ''`: the folder)
  ['sessions', '--model', ''],
  // --agent where it would be ignored (one session named, the whole index): refused, not silently taken
  ['show', 'abc', '--agent', 'codex'],
  ['export', 'abc', '--agent', 'codex'],
  ['index', '--agent', 'codex'],
  ['secrets', '--until', 'someday'],
  ['stats', '--since', 'yesterday'],
  ['usage', '--since', 'yesterday'],
  ['usage', 'session', '--until', 'someday'],
  ['search', 'anything', '--since', 'yesterday'],
  ['search', 'anything', '--limit=0'],
  ['archive', 'bogus'],
  ['push', 'http://127.0.0.1:9', '--token', 't', '--share', 'everything'],
  ['push', 'http://127.0.0.1:9', '--token', 't', '--forget', 'a', '--unforget', 'b'],
  ['push', 'http://127.0.0.1:9', '--token', 't', '--dry-run', '--watch'],
  ['serve', '--host', '0.0.0.0', '--no-otlp'],
  ['serve', '--push', 'http://127.0.0.1:9', '--push-token', 't', '--share', 'everything', '--no-otlp'],
  // an option of one value given twice: the last kept silently (a review: `--project a --project b` chose b's only)
  ['sessions', '--project', 'entire-graph', '--project', 'git-sync'],
  ['stats', '--agent', 'codex', '--agent', 'gemini'],
];

describe('arguments checked before any indexing', () => {
  it.each(badArguments.map((argv) => [argv.join(' '), argv] as const))(
    '%s: exit 2, one line, no database',
    async (_, argv) => {
      // With no PATH and no agent home: the bundled samples would be read (and indexed) after the check.
      const db = join(sb.dir, `${argv.join('-').replace(/[^a-z0-9]+/gi, '-')}.sqlite`);
      const r = await runCli(argv, { home: sb.emptyHome, db, env: { CLAUDE_CONFIG_DIR: sb.emptyHome } });
      expect([r.code, r.stderr.split('\n').length, existsSync(db)], r.stderr).toEqual([
        ExitCode.badArguments,
        2,
        false,
      ]);
    },
  );
});

describe('options before the command', () => {
  it('are read as after it (`agentdash --json sessions`), and alone say no command is named', async () => {
    const options = { home: sb.emptyHome, db: join(sb.dir, 'before.sqlite'), env: { CLAUDE_CONFIG_DIR: sb.emptyHome } };
    const before = await runCli(['--json', 'sessions', '--limit', '2'], options);
    const after = await runCli(['sessions', '--json', '--limit', '2'], options);
    expect([before.code, before.stdout]).toEqual([0, after.stdout]);
    expect(JSON.parse(before.stdout).sessions).toHaveLength(2);
    // `--db ''` (runCli's own --db comes last and would win): was "cannot use  as the index database: EISDIR …"
    let stderr = '';
    const io = {
      stdout: { write: () => true, isTTY: false },
      stderr: { write: (text: string) => (stderr += text), isTTY: false },
      env: { CLAUDE_CONFIG_DIR: sb.emptyHome },
      homedir: sb.emptyHome,
      now: Date.now,
    };
    expect([await run(['sessions', '--db', ''], io), stderr]).toEqual([
      ExitCode.badArguments,
      'agentdash: --db needs a value\n',
    ]);
    const alone = await runCli(['--json'], options);
    expect([alone.code, JSON.parse(alone.stderr).error.message]).toEqual([
      ExitCode.badArguments,
      '"--json" is an option, and no command is named: agentdash <command> [options]; run "agentdash --help"',
    ]);
  });
});

describe('an option given twice', () => {
  it('is said with both values; the same value twice, and a repeatable option, are taken', async () => {
    const options = { home: sb.emptyHome, db: join(sb.dir, 'twice.sqlite'), env: { CLAUDE_CONFIG_DIR: sb.emptyHome } };
    const twice = await runCli(['sessions', '--project', 'a', '--project', 'b'], options);
    expect([twice.code, twice.stderr]).toEqual([
      ExitCode.badArguments,
      'agentdash: --project given twice (a, b): give it once\n',
    ]);
    expect((await runCli(['sessions', '--project', 'a', '--project', 'a', '--json'], options)).code).toBe(ExitCode.ok);
  });
});

describe('a project folder named as the session (it starts with "-", as Claude Code names them)', () => {
  // A review: `show -home-user-proj-extras/cd11f12b` said "unknown option -o (--help lists the options)".
  it('is said as what it likely is, with the two ways to write it', async () => {
    const options = { home: sb.emptyHome, db: join(sb.dir, 'dash.sqlite'), env: { CLAUDE_CONFIG_DIR: sb.emptyHome } };
    const r = await runCli(['show', '-home-user-proj-extras/cd11f12b'], options);
    expect([r.code, r.stderr]).toEqual([
      ExitCode.badArguments,
      'agentdash: unknown option -o (--help lists the options): -home-user-proj-extras/cd11f12b is read as options; a path or session reference that starts with "-" goes after -- (… -- -home-user-proj-extras/cd11f12b), or write a session as <id>@<project folder>\n',
    ]);
    // one after -- is no option: the error is another argument's, said plainly
    expect((await runCli(['show', '--bogus', '--', '-home-u-p/id'], options)).stderr).toBe(
      'agentdash: unknown option --bogus (--help lists the options)\n',
    );
    // an option of its own stays a plain unknown option
    expect((await runCli(['sessions', '-x'], options)).stderr).toBe(
      'agentdash: unknown option -x (--help lists the options)\n',
    );
  });
});
