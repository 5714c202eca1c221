import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openIndex } from '@agentdash/index';
import { nextSessionId, writeDemoHome } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { parse } from './args.js';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { IndexJson, SessionsJson } from './output/json-types.js';
import { run } from './run.js';

const sb = cliSandbox();
const { cli, json } = sb;

/** `agentdash ARGV --db DB` in-process with `claudeHome` as the default Claude home, its output captured. */
async function runIn(db: string, claudeHome: string, argv: readonly string[]) {
  let stderr = '';
  let stdout = '';
  const code = await run([...argv, '--db', db], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { CLAUDE_CONFIG_DIR: claudeHome },
    homedir: sb.emptyHome,
    now: Date.now,
  });
  return { code, stdout, stderr };
}

describe('error paths', () => {
  it('a missing path: exit 3 with one line', async () => {
    const r = await cli(['sessions', join(sb.dir, 'does-not-exist')]);
    expect(r.code).toBe(ExitCode.badPath);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no such file or directory');
    const j = await cli(['stats', join(sb.dir, 'does-not-exist'), '--json']);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { kind: 'bad-path', exitCode: ExitCode.badPath } });
  });

  it('a file that is not a transcript: exit 3, and what PATH may name, for every agent', async () => {
    const file = join(sb.dir, 'notes.txt');
    writeFileSync(file, 'hello');
    // Before: "not a Claude Code transcript, project folder or Claude home", though every agent's are read.
    const said = `not an agent's home or a folder or transcript file inside one (Claude Code, Codex, Gemini, Copilot CLI, Qwen Code, OpenCode or Aider): ${file}`;
    for (const argv of [
      ['index', file],
      ['sessions', file],
      ['serve', file, '--no-otlp'],
    ]) {
      const r = await cli(argv);
      expect([argv[0], r.code, r.stderr]).toEqual([argv[0], ExitCode.badPath, `agentdash: ${said}\n`]);
    }
    const j = await cli(['stats', file, '--json']);
    expect(JSON.parse(j.stderr)).toEqual({ error: { kind: 'bad-path', message: said, exitCode: ExitCode.badPath } });
  });

  it('an unreadable transcript: exit 4', async () => {
    // Tests may run as root, where chmod 000 does not stop reading: a directory in place of a file does.
    const bogus = join(sb.dir, 'bogus.jsonl');
    mkdirSync(bogus, { recursive: true });
    const r = await cli(['index', bogus]);
    expect(r.code).toBe(ExitCode.unreadableFile);
    expect(r.stderr).toMatch(/cannot read .*bogus\.jsonl/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a transcript without read permission: exit 4 (skipped when running as root, who can read any file)',
    async () => {
      const file = join(sb.dir, 'locked', 'projects', '-p', 'locked.jsonl');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{}\n');
      chmodSync(file, 0o000);
      try {
        const r = await cli(['index', file]);
        expect(r.code).toBe(ExitCode.unreadableFile);
        // Inside a scanned folder it is skipped and counted instead.
        const scanned = json<IndexJson>(await cli(['index', join(sb.dir, 'locked'), '--json']));
        expect(scanned.issues).toBeGreaterThan(0);
      } finally {
        chmodSync(file, 0o644);
      }
    },
  );

  it('an unknown session: exit 5', async () => {
    const r = await cli(['show', 'ffffffff-no-such-session', SAMPLES_HOME]);
    expect(r.code).toBe(ExitCode.unknownSession);
    expect(r.stderr).toContain('no session matches');
    expect((await cli(['export', 'zzzz', SAMPLES_HOME, '--format', 'json'])).code).toBe(ExitCode.unknownSession);
  });

  it('a folder of sessions where SESSION belongs: exit 2 at once, nothing indexed; a folder of one session is it', async () => {
    const db = join(sb.dir, 'folder-as-session.sqlite');
    // The samples are the default home here: before, they were read into --db before "no session matches".
    const said = (argv: readonly string[]) => runIn(db, SAMPLES_HOME, argv);
    const byHome = await said(['export', SAMPLES_HOME, '--format', 'json']);
    expect(byHome.code).toBe(ExitCode.badArguments);
    expect(byHome.stderr).toMatch(
      /is a folder of \d+ sessions, not one; SESSION names one of them \(agentdash sessions /,
    );
    expect(readdirSync(sb.dir).filter((n) => n.startsWith('folder-as-session.sqlite'))).toEqual([]);
    // A folder of no transcript may be a session's name too (Claude Code 2.1 keeps `<id>/tool-results/` beside
    // `<id>.jsonl`): looked up as one, as before.
    const toolHome = join(sb.dir, 'tool-results-home');
    const project = join(toolHome, 'projects', '-home-user-proj-subagents');
    const id = '410c10d6-fdc3-4c91-bc4f-74b883942e01';
    cpSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-subagents', `${id}.jsonl`), join(project, `${id}.jsonl`));
    mkdirSync(join(project, id, 'tool-results'), { recursive: true });
    const byFolder = await said(['show', join(project, id), toolHome]);
    expect(byFolder.code, byFolder.stderr).toBe(0);
    expect(byFolder.stdout).toMatch(new RegExp(`^session {2}${id}$`, 'm'));
    // A session's own folder (Claude Code's, its subagents alone) names that session.
    const folder = join(SAMPLES_HOME, 'projects', '-home-user-proj-subagents', '410c10d6-fdc3-4c91-bc4f-74b883942e01');
    const shown = await said(['show', folder]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^session {2}410c10d6-fdc3-4c91-bc4f-74b883942e01$/m);
  });

  /** A Claude home of the samples' subagents project (three sessions) at `<name>-home`, and runs over `<name>.sqlite`. */
  const backupOfSamples = (name: string) => {
    const db = join(sb.dir, `${name}.sqlite`);
    const backup = join(sb.dir, `${name}-home`);
    cpSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-subagents'), join(backup, 'projects', '-p'), {
      recursive: true,
    });
    return { db, backup, said: (argv: readonly string[]) => runIn(db, sb.emptyHome, argv) };
  };

  it('a session of --db named without PATH is read from its own folder: no sample comes into that database', async () => {
    const { db, backup, said } = backupOfSamples('backup');
    expect((await said(['index', backup])).code).toBe(0);
    const shown = await said(['show', '410c10d6']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^session {2}410c10d6-fdc3-4c91-bc4f-74b883942e01$/m);
    // Before: "no agent transcripts in … showing the bundled sample sessions", and the samples indexed into it.
    expect(shown.stderr).not.toContain('bundled sample');
    const index = openIndex({ dbPath: db });
    try {
      expect(index.listSessions({}).every((s) => s.key.startsWith(backup))).toBe(true);
    } finally {
      index.close();
    }
  });

  it('sessions of --db without PATH on a machine without homes: what it holds, even once its folder is gone', async () => {
    const { db, backup, said } = backupOfSamples('listed');
    // A folder named that held no transcript is not read again by commands without a path, even named beside one
    // that did (the refresh's report counts both together).
    mkdirSync(join(sb.dir, 'nothing-here'), { recursive: true });
    expect((await said(['index', join(sb.dir, 'nothing-here'), backup])).code).toBe(0);
    const listed = async () => {
      const r = await said(['sessions', '--json']);
      expect(r.code, r.stderr).toBe(0);
      // Before: "showing the bundled sample sessions", 28 samples indexed into the database and listed instead.
      expect(r.stderr).not.toContain('bundled sample');
      expect(r.stderr).toContain(`reading the paths ${db} was built from: ${backup}`);
      return (JSON.parse(r.stdout) as SessionsJson).sessions.map((s) => [s.id, s.archived]);
    };
    // The project folder's three sessions (410c10d6 and the two others of the samples' subagents folder).
    const before = await listed();
    expect(before.map(([id]) => id)).toContain('410c10d6-fdc3-4c91-bc4f-74b883942e01');
    expect(before.map(([, archived]) => archived)).toEqual([false, false, false]);
    // The folder deleted whole: its sessions come from the archive (it was "no such file or directory").
    rmSync(backup, { recursive: true });
    expect(await listed()).toEqual(before.map(([id]) => [id, true]));
    const named = await said(['sessions', backup, '--json']);
    expect(named.code, named.stderr).toBe(0);
    expect((JSON.parse(named.stdout) as SessionsJson).sessions).toHaveLength(3);
    const index = openIndex({ dbPath: db });
    try {
      expect(index.listSessions({}).map((s) => s.key.startsWith(backup))).toEqual([true, true, true]);
      // The path as named, not the folder above it (a file named in /tmp would have made it "/").
      expect(index.namedRoots()).toEqual([backup]);
    } finally {
      index.close();
    }
  });

  it("an option's mistakes in plain words: exit 2", async () => {
    const said = async (argv: readonly string[]) => {
      const r = await cli(['sessions', SAMPLES_HOME, ...argv]);
      expect(r.code, argv.join(' ')).toBe(ExitCode.badArguments);
      return r.stderr;
    };
    expect(await said(['--bogus'])).toBe('agentdash: unknown option --bogus (--help lists the options)\n');
    expect(await said(['-x'])).toBe('agentdash: unknown option -x (--help lists the options)\n');
    expect(() => parse(['--limit'], { limit: { type: 'string' } })).toThrow(/^--limit needs a value$/);
    expect(await said(['--limit', '-1'])).toBe(
      'agentdash: --limit needs a value; one that starts with "-" is written --limit=VALUE\n',
    );
    expect(await said(['--errors=yes'])).toBe('agentdash: --errors takes no value\n');
    // an option with a short alias is named by its long name
    expect(await said(['--verbose=1'])).toBe('agentdash: --verbose takes no value\n');
    expect(() => parse(['--format'], { format: { type: 'string', short: 'f' } })).toThrow(/^--format needs a value$/);
    expect(() => parse(['-f', '-x'], { format: { type: 'string', short: 'f' } })).toThrow(
      /^--format needs a value; one that starts with "-" is written --format=VALUE$/,
    );
    // written so, the value reaches the option's own check
    expect(await said(['--limit=-1'])).toMatch(/^agentdash: --limit must be a positive integer/);
  });

  it('bad arguments: exit 2', async () => {
    expect((await cli(['sessions', '--bogus'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['frobnicate'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['sessions', SAMPLES_HOME, '--since', 'yesterday-ish'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['sessions', SAMPLES_HOME, '--limit', '-3'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['search'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['show'])).code).toBe(ExitCode.badArguments);
    // each says what it did not take, not only what it needs
    expect((await cli(['schema', 'Bash', 'Read'])).stderr).toMatch(/schema takes one TOOL; got 2: Bash Read/);
    expect((await cli(['team', 'bogus'])).stderr).toMatch(/unknown team action "bogus"; one of /);
  });

  it('a window that ends before it begins, an unquoted query of several words: exit 2, saying why', async () => {
    for (const command of ['sessions', 'stats', 'usage']) {
      const r = await cli([command, SAMPLES_HOME, '--since', '2026-11-23', '--until', '2026-11-21']);
      expect([r.code, r.stderr.trim()], command).toEqual([
        ExitCode.badArguments,
        'agentdash: --since 2026-11-23 is after --until 2026-11-21: nothing can be in that window',
      ]);
    }
    const words = await cli(['search', 'file', 'tool', 'checks']);
    expect([words.code, words.stderr]).toEqual([
      ExitCode.badArguments,
      expect.stringContaining('quote them: agentdash search "file tool checks"'),
    ]);
    // a PATH that looks like one stays a bad path
    expect((await cli(['search', 'file', './no-such-folder'])).code).toBe(ExitCode.badPath);
    // a word naming no usage report is a mistake, unless a folder here has that name (the repository's docs/)
    expect((await cli(['usage', 'dialy'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['usage', 'docs'])).stdout).toBe('No usage.\n');
  });

  it('--json mistakes are said in JSON too: as the command, or with a value', async () => {
    for (const argv of [['--json'], ['sessions', '--json=false']]) {
      const r = await cli(argv);
      expect([r.code, JSON.parse(r.stderr)], argv.join(' ')).toEqual([
        ExitCode.badArguments,
        { error: expect.objectContaining({ kind: 'bad-arguments', exitCode: ExitCode.badArguments }) },
      ]);
    }
  });

  it('malformed lines are counted, and --verbose lists them with file and line', async () => {
    const home = join(sb.dir, 'demo-malformed');
    const demo = writeDemoHome(home, { outputOnlyWord: 'a', subagentOnlyWord: 'b' }, nextSessionId());
    appendFileSync(demo.main, '{"type":"user", broken\n');
    const report = json<IndexJson>(await cli(['index', home, '--json']));
    expect(report.issues).toBe(1);
    // Quiet by default: a run that finds no new problem says nothing of the known ones.
    const quiet = await cli(['sessions', home]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr.includes('problem')).toBe(false);
    appendFileSync(demo.main, '{"type":"user", broken again\n');
    const fresh = await cli(['sessions', home]);
    expect(fresh.stderr).toContain('1 new problem in the transcripts');
    const verbose = await cli(['sessions', home, '--verbose']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain(`${demo.main}:7: invalid_json`);
    expect(verbose.stderr).toContain(`${demo.main}:8: invalid_json`);
  });

  it('show and the Markdown export keep an unknown record visible with its raw data', async () => {
    const home = join(sb.dir, 'demo-unknown');
    const demo = writeDemoHome(home, { outputOnlyWord: 'c', subagentOnlyWord: 'd' }, nextSessionId());
    appendFileSync(demo.main, '{"type":"hologram","beam":42}\n');
    const shown = await cli(['show', demo.sessionId, home]);
    expect(shown.code, shown.stderr).toBe(0);
    // The header lists it among the transcript's problems; the timeline shows it where it is.
    expect(shown.stdout.split('\n').filter((l) => l.includes('unknown record'))).toEqual([
      `         ${basename(demo.main)}:7: unknown_record: unknown record type "hologram" kept as raw data`,
      expect.stringMatching(/\? unknown record hologram: \{"type":"hologram","beam":42\}$/),
    ]);
    const markdown = await cli(['export', demo.sessionId, home, '--format', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain(
      '*Unknown record `hologram`*\n\n```\n{\n  "type": "hologram",\n  "beam": 42\n}\n```',
    );
  });

  it('a corrupt database file is moved aside and rebuilt, with a message', async () => {
    const bad = join(sb.dir, 'corrupt.sqlite');
    // An index of ours (its header stamped as AgentDash's), its pages after the header overwritten.
    openIndex({ dbPath: bad }).close();
    const bytes = readFileSync(bad);
    bytes.fill('damage: text where the pages should be. ', 100);
    writeFileSync(bad, bytes);
    let stderr = '';
    let stdout = '';
    const code = await run(['index', SAMPLES_HOME, '--json', '--db', bad], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      homedir: sb.emptyHome,
      now: Date.now,
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/unusable.*moved it to .*corrupt-.*rebuilt/);
    expect((JSON.parse(stdout) as IndexJson).filesParsed).toBeGreaterThan(0);
    expect(readdirSync(sb.dir).some((n) => n.startsWith('corrupt.sqlite.corrupt-'))).toBe(true);
  });
  it('a --db that is not a database (a transcript given by mistake) is left alone: exit 3, one line', async () => {
    const victim = join(sb.dir, 'victim.jsonl');
    const text = '{"type":"user","sessionId":"s","message":{"role":"user","content":"hello"}}\n';
    writeFileSync(victim, text);
    let stderr = '';
    let stdout = '';
    const code = await run(['sessions', SAMPLES_HOME, '--db', victim], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      homedir: sb.emptyHome,
      now: Date.now,
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 3,
      stdout: '',
      stderr: `agentdash: ${victim} is not an AgentDash index database (it does not start with the SQLite header); choose another --db path\n`,
    });
    expect(readFileSync(victim, 'utf8')).toBe(text);
    expect(readdirSync(sb.dir).filter((n) => n.startsWith('victim.jsonl'))).toEqual(['victim.jsonl']);
  });
});
