/**
 * `export -o FILE`: "wrote FILE" only once the file is really written and closed; a path that cannot be written is
 * one line, "cannot write FILE: <reason>", exit 3 (bad path), never a crash, and no half-written file is left; `-o -`
 * is standard output.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextSessionId, writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import { ExitCode } from './errors.js';

const here = dirname(fileURLToPath(import.meta.url));
const viewerBuilt = existsSync(resolve(here, '../../web/dist/export/export.js'));
const formats = ['json', 'envelope', 'markdown', ...(viewerBuilt ? ['html'] : [])];

/** The HTML export embeds the moment it was made; nothing else may differ. */
const withoutExportTime = (text: string) => text.replace(/"exportedAt":"[^"]*"/, '"exportedAt":…');

let dir: string;
let db: string;
let home: string;
let sessionId: string;
let regularFile: string;

const cli = (args: readonly string[]) => runCli(args, { home, db, env: { CLAUDE_CONFIG_DIR: home } });
const exportTo = (format: string, file: string, extra: readonly string[] = []) =>
  cli(['export', sessionId, home, '--format', format, '-o', file, ...extra]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-export-o-'));
  db = join(dir, 'index.sqlite');
  home = join(dir, 'home');
  sessionId = nextSessionId();
  writeDemoHome(home, { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' }, sessionId);
  regularFile = join(dir, 'afile');
  writeFileSync(regularFile, 'mine');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export -o FILE', () => {
  for (const format of formats) {
    it(`${format}: says "wrote FILE" once the file holds what standard output gets`, async () => {
      const file = join(dir, `ok.${format}`);
      const r = await exportTo(format, file);
      const toStdout = await cli(['export', sessionId, home, '--format', format]);
      expect([r.code, r.stdout, r.stderr]).toEqual([ExitCode.ok, '', `agentdash: wrote ${file}\n`]);
      expect(withoutExportTime(readFileSync(file, 'utf8'))).toBe(withoutExportTime(toStdout.stdout));
    });

    it(`${format}: a path that cannot be written is one error line, exit 3, and no file`, async () => {
      const cases = [
        [join(dir, 'no-such-dir', 'out'), 'no such file or directory'],
        [dir, 'it is a directory'],
        [join(regularFile, 'x'), 'a part of the path is not a directory'],
        ['/proc/nope.out', 'no such file or directory'],
      ] as const;
      const results = await Promise.all(cases.map(([file]) => exportTo(format, file)));
      expect(results.map((r) => [r.code, r.stdout, r.stderr])).toEqual(
        cases.map(([file, reason]) => [ExitCode.badPath, '', `agentdash: cannot write ${file}: ${reason}\n`]),
      );
      expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
      expect(readFileSync(regularFile, 'utf8')).toBe('mine');
    });
  }

  it('-o - is standard output, never a file named "-"', async () => {
    const r = await exportTo('json', '-');
    const toStdout = await cli(['export', sessionId, home, '--format', 'json']);
    const made = existsSync('-');
    if (made) rmSync('-');
    expect([made, r.code, r.stderr, r.stdout]).toEqual([false, ExitCode.ok, '', toStdout.stdout]);
  });

  // /dev/full (Linux) opens, then fails every write with ENOSPC.
  it.runIf(existsSync('/dev/full'))(
    'a write that fails after the file is open (a full disk) is an error too, and nothing is claimed',
    async () => {
      const r = await exportTo('markdown', '/dev/full');
      expect([r.code, r.stdout, r.stderr]).toEqual([
        ExitCode.badPath,
        '',
        'agentdash: cannot write /dev/full: no space left on device\n',
      ]);
      const json = await exportTo('markdown', '/dev/full', ['--json']);
      expect([json.code, JSON.parse(json.stderr)]).toEqual([
        ExitCode.badPath,
        { error: { kind: 'bad-path', message: 'cannot write /dev/full: no space left on device', exitCode: 3 } },
      ]);
    },
  );
});

describe('export -o into what AgentDash reads', () => {
  // Before: each was truncated and overwritten with the export, exit 0 (a review helper's finding): a transcript the
  // client could no longer resume, or the index with its archive of transcripts the agent had deleted.
  it('refuses the transcripts and the index database, by whatever name, and leaves them as they were', async () => {
    const project = join(home, 'projects', '-home-user-proj-demo');
    const transcript = join(project, `${sessionId}.jsonl`);
    await cli(['sessions', home]);
    // the index's pages all in its file, its write-ahead log empty: a later process that only reads has nothing to
    // move into the file (a checkpoint at its close changed the file's bytes, not its content), and any write shows
    const conn = new Database(db);
    conn.pragma('wal_checkpoint(TRUNCATE)');
    conn.close();
    // The transcript byte for byte; the index as SQLite reads it: its header, its integrity and what it holds. (Its
    // bytes may change: every command refreshes the index first, and a refresh on a loaded machine may write its
    // freshness record where the first one could not vouch for the folders; a run failed on that alone.)
    const state = () => {
      const conn = new Database(db, { readonly: true });
      try {
        return [
          readFileSync(transcript, 'utf8'),
          readFileSync(db).subarray(0, 16).toString('latin1'),
          conn.pragma('integrity_check', { simple: true }),
          conn.prepare('SELECT id, title, messages FROM sessions ORDER BY id').all(),
          conn.prepare('SELECT COUNT(*) AS n FROM calls').get(),
          existsSync(`${db}-wal`) ? readFileSync(`${db}-wal`).subarray(0, 4).toString('hex') : 'none',
        ];
      } finally {
        conn.close();
      }
    };
    const before = state();
    // a link to the transcript, and a link to its home's folder (the stored path names neither)
    symlinkSync(transcript, join(dir, 'alias.jsonl'));
    symlinkSync(home, join(dir, 'home-link'));
    const cases = [
      [transcript, 'it is a transcript AgentDash reads'],
      [join(dir, 'alias.jsonl'), 'it is a transcript AgentDash reads'],
      [
        join(dir, 'home-link', 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`),
        'it is a transcript AgentDash reads',
      ],
      [db, 'it is the index database'],
      [`${db}-wal`, 'it is the index database'],
    ] as const;
    for (const [file, reason] of cases) {
      const r = await exportTo('markdown', file);
      expect([file, r.code, r.stderr]).toEqual([file, ExitCode.badArguments, `agentdash: -o ${file}: ${reason}\n`]);
    }
    expect(state()).toEqual(before);
  });

  // A review: `-o ~/.claude/projects/<folder>/new.jsonl` wrote there, and the next command listed the export as a
  // session, kept by the archive once the file was deleted.
  it("refuses a new file in an agent's own folders, as their variables name them", async () => {
    const cases = [
      join(home, 'projects', '-home-user-proj-demo', 'notes.md'),
      join(home, 'projects', '-home-u-evil', 'new.jsonl'),
      join(dir, 'home-link', 'projects', 'new.md'),
    ];
    for (const file of cases) {
      const r = await exportTo('json', file);
      expect([file, r.code, r.stderr]).toEqual([
        file,
        ExitCode.badArguments,
        `agentdash: -o ${file}: it is in ${home}, where an agent keeps its transcripts (AgentDash never writes there)\n`,
      ]);
      expect(existsSync(file)).toBe(false);
    }
    // Codex's home, as its variable names it, though nothing was indexed there
    const codexHome = join(dir, 'codex-home');
    const file = join(codexHome, 'sessions', 'x.jsonl');
    const r = await runCli(['export', sessionId, home, '--format', 'json', '-o', file], {
      home,
      db,
      env: { CLAUDE_CONFIG_DIR: home, CODEX_HOME: codexHome },
    });
    expect([r.code, r.stderr]).toEqual([
      ExitCode.badArguments,
      `agentdash: -o ${file}: it is in ${codexHome}, where an agent keeps its transcripts (AgentDash never writes there)\n`,
    ]);
  });

  // A review of this guard's first form, which refused the folder above every indexed transcript's: one named as a
  // PATH from ~/Downloads made the person's whole home refused.
  it("writes beside a transcript named as a PATH from a folder of the person's own", async () => {
    const downloads = join(dir, 'person', 'Downloads');
    mkdirSync(downloads, { recursive: true });
    const named = join(downloads, `${sessionId}.jsonl`);
    cpSync(join(home, 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), named);
    const file = join(dir, 'person', 'docs', 'out.md');
    mkdirSync(dirname(file), { recursive: true });
    const r = await cli(['export', named, named, '--format', 'markdown', '-o', file]);
    expect([r.code, r.stderr, existsSync(file)]).toEqual([ExitCode.ok, `agentdash: wrote ${file}\n`, true]);
  });

  // Left out at the fifty-seventh stop: a Claude home indexed as a PATH (a backup, another machine's) took the export
  // as a new transcript, listed by the next command and kept by the archive. Other names there are the person's.
  it("refuses a transcript's name in a folder the index was built from by name; writes any other name", async () => {
    const backup = join(dir, 'backup', 'claude-home');
    const folder = join(backup, 'projects', '-home-user-proj-demo');
    mkdirSync(folder, { recursive: true });
    cpSync(join(home, 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), join(folder, `${sessionId}.jsonl`));
    await cli(['index', backup]);
    for (const file of [join(folder, 'copy.jsonl'), join(backup, 'other', '.aider.chat.history.md')]) {
      const r = await cli(['export', sessionId, '--format', 'json', '-o', file]);
      expect([file, r.code, r.stderr]).toEqual([
        file,
        ExitCode.badArguments,
        `agentdash: -o ${file}: it is in ${backup}, which the index reads transcripts from: the next command would read the export as one\n`,
      ]);
      expect(existsSync(file)).toBe(false);
    }
    // names no discovery takes (a review: out.json was refused, and the next command did not read it)
    for (const [format, name] of [
      ['markdown', 'notes.md'],
      ['json', 'out.json'],
    ] as const) {
      const kept = join(backup, name);
      const r = await cli(['export', sessionId, '--format', format, '-o', kept]);
      expect([r.code, r.stderr, existsSync(kept)]).toEqual([ExitCode.ok, `agentdash: wrote ${kept}\n`, true]);
    }
  });

  // A review of the first guard: it refused every path in an Aider repository (the transcripts' folder is the user's).
  it("writes a new file beside an Aider repository's transcript: the folder is the person's", async () => {
    const repo = join(dir, 'repos', 'app');
    mkdirSync(repo, { recursive: true });
    writeFileSync(
      join(repo, '.aider.chat.history.md'),
      '\n# aider chat started at 2025-01-02 10:00:00\n\n#### Say hi.\n\nHi.\n',
    );
    const file = join(repo, 'notes.md');
    const r = await cli(['export', sessionId, home, repo, '--format', 'markdown', '-o', file]);
    expect([r.code, r.stderr, existsSync(file)]).toEqual([ExitCode.ok, `agentdash: wrote ${file}\n`, true]);
  });
});
