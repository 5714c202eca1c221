import { spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openIndex } from '@agentdash/index';
import { AGENT, contentBlocks, nextSessionId, writeDemoHome } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, waitReady } from '../test/harness.js';
import { commands } from './commands/all.js';
import { SAMPLES_HOME } from './context.js';
import { ExitCode } from './errors.js';
import type { CliIo } from './io.js';
import type { EnvelopeLineJson, IndexJson, SearchJson, SessionsJson, StatsJson } from './output/json-types.js';
import { run } from './run.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let db: string;
let emptyHome: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-cli-'));
  db = join(dir, 'index.sqlite');
  emptyHome = join(dir, 'empty-home');
  mkdirSync(emptyHome);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function cli(
  args: readonly string[],
  options: { env?: Record<string, string>; tty?: boolean } = {},
): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s), isTTY: options.tty ?? false, columns: 120 },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
    env: { CLAUDE_CONFIG_DIR: emptyHome, ...options.env },
    homedir: emptyHome,
    now: Date.now,
  };
  const code = await run([...args, '--db', db], io);
  return { code, stdout, stderr };
}

const json = <T>(r: Result): T => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

describe('help', () => {
  it('lists the commands and gives help for each', async () => {
    const main = await run(['--help'], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: {},
      homedir: emptyHome,
      now: Date.now,
    });
    expect(main).toBe(0);
    for (const command of commands) {
      const r = await cli([command.name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: agentdash ${command.name}`);
      expect(r.stdout).toContain('--json');
    }
  });
});

describe('commands over the bundled samples', () => {
  it('index --json: a second run parses 0 bytes', async () => {
    const first = json<IndexJson>(await cli(['index', SAMPLES_HOME, '--json']));
    expect(first.files).toBeGreaterThan(0);
    expect(first.sessions).toBeGreaterThan(0);
    const second = json<IndexJson>(await cli(['index', SAMPLES_HOME, '--json']));
    expect(second).toMatchObject({ files: first.files, filesParsed: 0, bytesParsed: 0, records: 0 });
    expect(Object.keys(second).sort()).toEqual(
      [
        'archive',
        'archivedFiles',
        'bytesParsed',
        'claudeCleanup',
        'db',
        'files',
        'filesParsed',
        'filesRemoved',
        'issues',
        'newIssues',
        'records',
        'sessions',
      ].sort(),
    );
    const human = await cli(['index', SAMPLES_HOME]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^\d+ files, \d+ sessions; parsed 0 files \(0 B, 0 records\)/);
  });

  it('falls back to the samples when there is no Claude home, with a note', async () => {
    const r = await cli(['index', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('bundled sample sessions');
  });

  it('falls back to the samples when the Claude home has an empty projects folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agentdash-emptyprojects-'));
    mkdirSync(join(home, 'projects', '-some-project'), { recursive: true });
    const r = await cli(['sessions', '--json'], { env: { CLAUDE_CONFIG_DIR: home } });
    expect(r.stderr).toContain('bundled sample sessions');
    expect(json<{ sessions: unknown[] }>(r).sessions.length).toBeGreaterThan(10);
    rmSync(home, { recursive: true, force: true });
  });

  it('sessions: a table newest first, and --json', async () => {
    const human = await cli(['sessions', SAMPLES_HOME]);
    expect(human.code).toBe(0);
    const [header] = human.stdout.split('\n');
    expect(header).toMatch(
      /^SESSION\s+AGENT\s+STARTED\s+DURATION\s+MSGS\s+CALLS\s+ERRORS\s+COST\s+VERSION\s+MODEL\s+PROJECT\s+TITLE$/,
    );
    expect(human.stdout).not.toContain('\u001b['); // no colour in a pipe
    const out = json<SessionsJson>(await cli(['sessions', SAMPLES_HOME, '--json']));
    expect(out.sessions.length).toBeGreaterThan(3);
    const starts = out.sessions.map((s) => s.startedAt ?? '');
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(human.stdout).toContain(`${out.sessions.length} sessions`);
    const first = out.sessions[0];
    expect(first).toMatchObject({
      id: expect.any(String),
      messages: expect.any(Number),
      toolCalls: expect.any(Number),
    });

    const filtered = json<SessionsJson>(await cli(['sessions', SAMPLES_HOME, '--json', '--project', 'proj/files']));
    expect(filtered.sessions.length).toBeGreaterThan(0);
    expect(filtered.sessions.every((s) => s.projectPath?.includes('proj/files'))).toBe(true);
    const none = json<SessionsJson>(await cli(['sessions', SAMPLES_HOME, '--json', '--since', '2999-01-01']));
    expect(none.sessions).toEqual([]);
    const withErrors = json<SessionsJson>(await cli(['sessions', SAMPLES_HOME, '--json', '--errors']));
    expect(withErrors.sessions.every((s) => s.errors > 0)).toBe(true);
  });

  it('draws a progress bar on stderr only when stderr is a terminal', async () => {
    const tty = await cli(['index', SAMPLES_HOME], { tty: true });
    expect(tty.stderr).toMatch(/indexing \[#+\] \d+\/\d+ files/);
    const pipe = await cli(['index', SAMPLES_HOME]);
    expect(pipe.stderr).not.toContain('indexing [');
    const json = await cli(['index', SAMPLES_HOME, '--json'], { tty: true });
    expect(json.code).toBe(0);
    expect(json.stderr).not.toContain('indexing [');
  });

  it('sessions in colour on a TTY', async () => {
    const r = await cli(['sessions', SAMPLES_HOME, '--no-progress'], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\u001b[');
  });

  it('stats: per-tool table and the exact --json shape', async () => {
    const out = json<StatsJson>(await cli(['stats', SAMPLES_HOME, '--json']));
    expect(out.calls).toBeGreaterThan(0);
    for (const [name, tool] of Object.entries(out.tools)) {
      expect(name).not.toBe('');
      expect(Object.keys(tool)).toEqual(
        expect.arrayContaining(['calls', 'errors', 'expectedErrors', 'errorRate', 'durationMs', 'categories']),
      );
      expect(Object.keys(tool.durationMs).sort()).toEqual(['max', 'p50', 'p95']);
      expect(tool.errorRate).toBeCloseTo(tool.errors / tool.calls);
      expect(Object.values(tool.categories).reduce((a, b) => a + b, 0)).toBe(tool.errors);
    }
    const sum = Object.values(out.tools).reduce((a, t) => a + t.calls, 0);
    expect(sum).toBe(out.calls);
    const human = await cli(['stats', SAMPLES_HOME]);
    expect(human.stdout.split('\n')[0]).toMatch(
      /^TOOL\s+CALLS\s+ERRORS\s+EXPECTED\s+ERR%\s+P50\s+P95\s+MAX\s+CATEGORIES$/,
    );
    // The table shows real errors and expected ones apart, as the dashboard does.
    expect(human.stdout).toMatch(
      new RegExp(`TOTAL\\s+${out.calls}\\s+${out.errors - out.expectedErrors}\\s+${out.expectedErrors}\\s`),
    );
    // Renamed tools are one row under the canonical name, with the written names beside it.
    const canonicalSum = Object.values(out.byCanonical).reduce((a, t) => a + t.calls, 0);
    expect(canonicalSum).toBe(out.calls);
    expect(out.byCanonical.Agent?.names).toEqual(expect.arrayContaining(['Task']));
    expect(human.stdout).toMatch(/^Agent \(Task\)\s/m);
    const bash = json<StatsJson>(await cli(['stats', SAMPLES_HOME, '--json', '--tool', 'Bash']));
    expect(Object.keys(bash.tools)).toEqual(['Bash']);
  });

  it('show: a timeline by id prefix, by file, and --json with results nested', async () => {
    const sessions = json<SessionsJson>(await cli(['sessions', SAMPLES_HOME, '--json'])).sessions;
    const withCalls = sessions.find((s) => s.toolCalls > 5 && s.errors > 0);
    if (!withCalls) throw new Error('no sample session with calls and errors');
    const human = await cli(['show', withCalls.id.slice(0, 8), SAMPLES_HOME]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(withCalls.id);
    expect(human.stdout).toContain('▶');
    expect(human.stdout).toMatch(/✓ \w+/);
    expect(human.stdout).toMatch(/✗ .*\[[a-z-]+, (error|expected)\]/);

    const mainFile = withCalls.files.find((f) => f.role === 'main')?.path ?? '';
    const byFile = await cli(['show', mainFile]);
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout).toContain(withCalls.id);

    const session = json<{
      id: string;
      calls: { id: string; name: string; status: string; result?: { isError: boolean; typed: { kind: string } } }[];
    }>(await cli(['show', withCalls.id, SAMPLES_HOME, '--json']));
    expect(session.id).toBe(withCalls.id);
    expect(session.calls.length).toBe(withCalls.toolCalls);
    expect(session.calls.filter((c) => c.status === 'error').length).toBe(withCalls.errors);
    expect(session.calls.every((c) => c.result === undefined || typeof c.result.typed.kind === 'string')).toBe(true);
  });

  it('show by a subagent file path shows its whole session', async () => {
    const demo = writeDemoHome(
      join(dir, 'demo-show-sub'),
      { outputOnlyWord: 'x', subagentOnlyWord: 'y' },
      nextSessionId(),
    );
    const r = await cli(['show', demo.sub]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(demo.sessionId);
    expect(r.stdout).toContain('Bash npm test');
    expect(r.stdout).toContain('┌ subagent');
  });

  it('show nests a subagent under its call', async () => {
    const home = join(dir, 'demo-show');
    const { sessionId: SESSION } = writeDemoHome(
      home,
      { outputOnlyWord: 'zanzibarquux', subagentOnlyWord: 'quokkafrost' },
      nextSessionId(),
    );
    const r = await cli(['show', SESSION, home]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const agentLine = lines.findIndex((l) => l.includes('Agent Survey code'));
    expect(agentLine).toBeGreaterThan(0);
    expect(lines[agentLine + 1]).toMatch(/^ {4}┌ subagent general-purpose/);
    expect(lines.find((l) => l.includes('Read src/a.ts'))).toMatch(/^ {4}\d\d:\d\d:\d\d {2}✓ Read src\/a.ts/);
    expect(r.stdout).toMatch(/✗ Bash npm test → exit 1 \(2\.0 s\) \[exit-code, error\]/);
  });

  it('search: text only in a tool output, and only in a subagent file', async () => {
    const home = join(dir, 'demo-search');
    const { sessionId: SESSION } = writeDemoHome(
      home,
      { outputOnlyWord: 'zanzibarquux', subagentOnlyWord: 'quokkafrost' },
      nextSessionId(),
    );
    const out = json<SearchJson>(await cli(['search', 'zanzibarquux', home, '--json']));
    expect(out.hits).toHaveLength(1);
    expect(out.hits[0]).toMatchObject({ sessionId: SESSION, kind: 'tool-output', tool: 'Bash' });
    expect(out.hits[0]?.snippet).toContain('\u0001zanzibarquux\u0002');
    const sub = json<SearchJson>(await cli(['search', 'quokkafrost', home, '--json']));
    expect(sub.hits).toHaveLength(1);
    expect(sub.hits[0]).toMatchObject({ sessionId: SESSION, agentId: AGENT });
    const human = await cli(['search', 'zanzibarquux', home]);
    expect(human.stdout).toContain('tool-output Bash');
    expect(human.stdout).toContain('FAIL zanzibarquux suite');
    expect(human.stdout).toContain('1 hit');
    const none = await cli(['search', 'nothingmatchesthis', home]);
    expect(none.stdout).toContain('No matches');
    expect(json<SearchJson>(await cli(['search', 'zanzibarquux', home, '--json', '--tool', 'Read'])).hits).toEqual([]);
  });

  it('search: a Chinese or Japanese word inside a run of text without spaces', async () => {
    const home = join(dir, 'demo-search-cjk');
    const { sessionId: SESSION } = writeDemoHome(
      home,
      { outputOnlyWord: '我们的数据库连接失败', subagentOnlyWord: 'データベースへの接続' },
      nextSessionId(),
    );
    const out = json<SearchJson>(await cli(['search', '连接', home, '--json']));
    expect(out.hits.map((h) => [h.sessionId, h.kind, h.snippet])).toEqual([
      [SESSION, 'tool-output', 'Exit code 1\nFAIL 我们的数据库\u0001连接\u0002失败 suite'],
    ]);
    const sub = json<SearchJson>(await cli(['search', 'データベース', home, '--json']));
    expect(sub.hits.map((h) => [h.agentId, h.snippet])).toEqual([
      [AGENT, 'The code looks fine; \u0001データベース\u0002への接続 noted.'],
    ]);
    expect((await cli(['search', '数据库 suite', home])).stdout).toContain('FAIL 我们的数据库连接失败 suite');
  });

  it('search over the samples finds tool outputs and subagent text', async () => {
    const out = json<SearchJson>(await cli(['search', 'quick brown fox', SAMPLES_HOME, '--json', '--limit', '5']));
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits.length).toBeLessThanOrEqual(5);
  });

  it('export: json, envelope (one per call, with id and tool) and markdown', async () => {
    const home = join(dir, 'demo-export');
    const { sessionId: SESSION } = writeDemoHome(home, { outputOnlyWord: 'a', subagentOnlyWord: 'b' }, nextSessionId());
    const asJson = json<{ id: string; calls: unknown[] }>(await cli(['export', SESSION, home, '--format', 'json']));
    expect(asJson.id).toBe(SESSION);
    expect(asJson.calls).toHaveLength(3);

    const env = await cli(['export', SESSION, home, '--format', 'envelope']);
    expect(env.code).toBe(0);
    const lines = env.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EnvelopeLineJson);
    expect(lines.map((l) => [l.id, l.tool])).toEqual([
      ['toolu_bash1', 'Bash'],
      ['toolu_agent1', 'Agent'],
      ['toolu_read1', 'Read'],
    ]);
    for (const line of lines) {
      if (line.success) expect(line.data).toBeTypeOf('object');
      else expect(line.error).toBeTypeOf('string');
    }

    const md = await cli(['export', SESSION, home, '--format', 'markdown']);
    expect(md.stdout).toMatch(/^# Please run the tests/);
    expect(md.stdout).toContain('## User');
    expect(md.stdout).toContain('**Bash npm test → exit 1**');
    expect(md.stdout).toContain('> **Subagent general-purpose');

    expect((await cli(['export', SESSION, home])).code).toBe(ExitCode.badArguments);
    expect((await cli(['export', SESSION, home, '--format', 'yaml'])).code).toBe(ExitCode.badArguments);
  });

  it('schema: all typed-result schemas, or one by tool name', async () => {
    const all = json<{ schemas: Record<string, unknown> }>(await cli(['schema']));
    expect(Object.keys(all.schemas)).toEqual(expect.arrayContaining(['bash', 'read', 'edit', 'agent', 'mcp']));
    const bash = json<{ properties: { kind: { const: string } } }>(await cli(['schema', 'Bash']));
    expect(bash.properties.kind.const).toBe('bash');
    const task = json<{ properties: { kind: { const: string } } }>(await cli(['schema', 'Task']));
    expect(task.properties.kind.const).toBe('agent');
    expect((await cli(['schema', 'NoSuchTool'])).code).toBe(ExitCode.badArguments);
  });
});

describe('error paths', () => {
  it('a missing path: exit 3 with one line', async () => {
    const r = await cli(['sessions', join(dir, 'does-not-exist')]);
    expect(r.code).toBe(ExitCode.badPath);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no such file or directory');
    const j = await cli(['stats', join(dir, 'does-not-exist'), '--json']);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { kind: 'bad-path', exitCode: ExitCode.badPath } });
  });

  it('a file that is not a transcript: exit 3', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'hello');
    expect((await cli(['index', file])).code).toBe(ExitCode.badPath);
  });

  it('an unreadable transcript: exit 4', async () => {
    // Tests may run as root, where chmod 000 does not stop reading: a directory in place of a file does.
    const bogus = join(dir, 'bogus.jsonl');
    mkdirSync(bogus, { recursive: true });
    const r = await cli(['index', bogus]);
    expect(r.code).toBe(ExitCode.unreadableFile);
    expect(r.stderr).toMatch(/cannot read .*bogus\.jsonl/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a transcript without read permission: exit 4 (skipped when running as root, who can read any file)',
    async () => {
      const file = join(dir, 'locked', 'projects', '-p', 'locked.jsonl');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{}\n');
      chmodSync(file, 0o000);
      try {
        const r = await cli(['index', file]);
        expect(r.code).toBe(ExitCode.unreadableFile);
        // Inside a scanned folder it is skipped and counted instead.
        const scanned = json<IndexJson>(await cli(['index', join(dir, 'locked'), '--json']));
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

  it('bad arguments: exit 2', async () => {
    expect((await cli(['sessions', '--bogus'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['frobnicate'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['sessions', SAMPLES_HOME, '--since', 'yesterday-ish'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['sessions', SAMPLES_HOME, '--limit', '-3'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['search'])).code).toBe(ExitCode.badArguments);
    expect((await cli(['show'])).code).toBe(ExitCode.badArguments);
  });

  it('malformed lines are counted, and --verbose lists them with file and line', async () => {
    const home = join(dir, 'demo-malformed');
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
    const home = join(dir, 'demo-unknown');
    const demo = writeDemoHome(home, { outputOnlyWord: 'c', subagentOnlyWord: 'd' }, nextSessionId());
    appendFileSync(demo.main, '{"type":"hologram","beam":42}\n');
    const shown = await cli(['show', demo.sessionId, home]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n').filter((l) => l.includes('unknown record'))).toEqual([
      expect.stringMatching(/\? unknown record hologram: \{"type":"hologram","beam":42\}$/),
    ]);
    const markdown = await cli(['export', demo.sessionId, home, '--format', 'markdown']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain(
      '*Unknown record `hologram`*\n\n```\n{\n  "type": "hologram",\n  "beam": 42\n}\n```',
    );
  });

  it('a corrupt database file is moved aside and rebuilt, with a message', async () => {
    const bad = join(dir, 'corrupt.sqlite');
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
      homedir: emptyHome,
      now: Date.now,
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(/unusable.*moved it to .*corrupt-.*rebuilt/);
    expect((JSON.parse(stdout) as IndexJson).filesParsed).toBeGreaterThan(0);
    expect(readdirSync(dir).some((n) => n.startsWith('corrupt.sqlite.corrupt-'))).toBe(true);
  });
  it('a --db that is not a database (a transcript given by mistake) is left alone: exit 3, one line', async () => {
    const victim = join(dir, 'victim.jsonl');
    const text = '{"type":"user","sessionId":"s","message":{"role":"user","content":"hello"}}\n';
    writeFileSync(victim, text);
    let stderr = '';
    let stdout = '';
    const code = await run(['sessions', SAMPLES_HOME, '--db', victim], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
      homedir: emptyHome,
      now: Date.now,
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 3,
      stdout: '',
      stderr: `agentdash: ${victim} is not an AgentDash index database (it does not start with the SQLite header); choose another --db path\n`,
    });
    expect(readFileSync(victim, 'utf8')).toBe(text);
    expect(readdirSync(dir).filter((n) => n.startsWith('victim.jsonl'))).toEqual(['victim.jsonl']);
  });
});

describe('incremental index through the CLI (real SQLite file)', () => {
  it('an appended copy of a session parses only the new bytes', async () => {
    const source = readdirSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-files')).find((n) =>
      n.endsWith('.jsonl'),
    );
    if (!source) throw new Error('sample missing');
    const bytes = readFileSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-files', source));
    const target = join(dir, 'append-home', 'projects', '-p', source);
    const cut = bytes.indexOf(0x0a, Math.floor(bytes.length / 2)) + 1;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes.subarray(0, cut));
    const home = join(dir, 'append-home');
    const first = json<IndexJson>(await cli(['index', home, '--json']));
    expect(first.bytesParsed).toBe(cut);
    appendFileSync(target, bytes.subarray(cut));
    const second = json<IndexJson>(await cli(['index', home, '--json']));
    expect(second).toMatchObject({ filesParsed: 1, bytesParsed: bytes.length - cut });
    expect(json<IndexJson>(await cli(['index', home, '--json'])).bytesParsed).toBe(0);
  });
});

const corpusRoot = resolve(repoRoot, '../shared/corpus');
const corpusVersions = existsSync(corpusRoot)
  ? readdirSync(corpusRoot).filter((v) => existsSync(join(corpusRoot, v, 'claude-home')))
  : [];

/** Unique tool_use ids per tool and is_error results, counted with plain JSON.parse (no AgentDash code). */
function independentCount(home: string): {
  calls: number;
  errors: number;
  tools: Record<string, { calls: number; errors: number }>;
} {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.jsonl')) files.push(p);
    }
  };
  walk(join(home, 'projects'));
  const calls = new Map<string, string>();
  const isError = new Map<string, boolean>();
  for (const file of files) {
    for (const { recordType, block } of contentBlocks(readFileSync(file, 'utf8'))) {
      if (recordType === 'assistant' && block.type === 'tool_use' && block.id && !calls.has(block.id))
        calls.set(block.id, block.name ?? '');
      if (recordType === 'user' && block.type === 'tool_result' && block.tool_use_id && !isError.has(block.tool_use_id))
        isError.set(block.tool_use_id, block.is_error === true);
    }
  }
  const tools: Record<string, { calls: number; errors: number }> = {};
  let errors = 0;
  for (const [id, name] of calls) {
    const t = tools[name] ?? { calls: 0, errors: 0 };
    tools[name] = t;
    t.calls += 1;
    if (isError.get(id) === true) {
      t.errors += 1;
      errors += 1;
    }
  }
  return { calls: calls.size, errors, tools };
}

// Says "skipped" only when it is.
const suiteTitle = corpusVersions.length === 0 ? 'corpus (skipped: ../shared/corpus is not present)' : 'corpus';
describe.skipIf(corpusVersions.length === 0)(suiteTitle, () => {
  for (const version of corpusVersions) {
    it(`stats --json over ${version} equals an independent count`, async () => {
      const home = join(corpusRoot, version, 'claude-home');
      const stats = json<StatsJson>(await cli(['stats', home, '--json']));
      const expected = independentCount(home);
      expect(stats.calls).toBe(expected.calls);
      expect(stats.errors).toBe(expected.errors);
      const actual = Object.fromEntries(
        Object.entries(stats.tools).map(([n, t]) => [n, { calls: t.calls, errors: t.errors }]),
      );
      expect(actual).toEqual(expected.tools);
      const again = json<IndexJson>(await cli(['index', home, '--json']));
      expect(again.bytesParsed).toBe(0);
    });
  }

  it('an appended copy of a corpus session parses only the new bytes', async () => {
    const version = corpusVersions[0] ?? '';
    const projects = join(corpusRoot, version, 'claude-home', 'projects');
    const project = readdirSync(projects)[0] ?? '';
    const source = readdirSync(join(projects, project)).find((n) => n.endsWith('.jsonl')) ?? '';
    const target = join(dir, 'corpus-copy', 'projects', project, source);
    cpSync(join(projects, project, source), target);
    const home = join(dir, 'corpus-copy');
    json<IndexJson>(await cli(['index', home, '--json']));
    const extra = `${readFileSync(target, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-1)[0]
      ?.replace(/"uuid":"[^"]+"/, '"uuid":"appended-uuid"')}\n`;
    appendFileSync(target, extra);
    const r = json<IndexJson>(await cli(['index', home, '--json']));
    expect(r).toMatchObject({ filesParsed: 1, bytesParsed: Buffer.byteLength(extra), records: 1 });
  });
});

const bin = resolve(here, '../bin/agentdash.js');
const built = resolve(here, '../dist/bin.js');
const bundled = resolve(here, '../bundle/bin.js');
// Says "skipped" only when it is.
const suiteTitle2 = !existsSync(built) ? 'built bin (skipped: run `npx tsc -b packages/cli` first)' : 'built bin';
describe.skipIf(!existsSync(built))(suiteTitle2, () => {
  it('is the package bin, runs as a program with a shebang and exits with the right code', async () => {
    const pkg = JSON.parse(readFileSync(resolve(here, '../package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    expect(resolve(here, '..', pkg.bin.agentdash ?? '')).toBe(bin);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin', 'bundle', 'dist', 'samples']));
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    expect(readFileSync(built, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const result = await new Promise<Result>((done) => {
      const child = spawn(process.execPath, [bin, 'sessions', join(dir, 'nope'), '--db', db], { stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
    expect(result.code).toBe(ExitCode.badPath);
    expect(result.stderr).toContain('agentdash:');
  });

  it.skipIf(!existsSync(bundled))(
    'is the bundle when built, with the worker scripts where its modules look for them',
    async () => {
      // The launcher runs the bundle (scripts/bundle-cli.mjs) when `npm run build` made one.
      expect(readFileSync(bin, 'utf8')).toContain("'../bundle/bin.js'");
      const { builtWorkerScript } = await import('@agentdash/index');
      for (const name of ['parse-worker.js', 'session-worker.js', 'watch-worker.js']) {
        const found = builtWorkerScript(name, pathToFileURL(bundled).href);
        expect(found && fileURLToPath(found)).toBe(join(dirname(bundled), name));
      }
      // Every module of the bundle imports only Node's built-ins, the native addon and other files of the bundle.
      const outside = new Set<string>();
      for (const name of readdirSync(dirname(bundled)).filter((n) => n.endsWith('.js'))) {
        const text = readFileSync(join(dirname(bundled), name), 'utf8');
        const specs = [
          ...text.matchAll(/^(?:import|export)\b[^;\n]*?["']([^"']+)["'];?$/gm),
          ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
        ].map((m) => m[1] ?? '');
        for (const spec of specs) {
          if (!spec.startsWith('node:') && spec !== 'better-sqlite3' && !/^\.\/[\w-]+\.js$/.test(spec))
            outside.add(spec);
        }
      }
      expect([...outside]).toEqual([]);
      // The dashboard is beside the bundle, where the server looks first (a package from the registry has no
      // packages/web).
      expect(existsSync(join(dirname(bundled), 'web', 'index.html'))).toBe(
        existsSync(resolve(here, '../../web/dist/index.html')),
      );
    },
  );

  it('serve prints the URL and answers', async () => {
    const { child, url, code } = await startServe([SAMPLES_HOME, '--no-progress'], db);
    try {
      if (url === undefined) throw new Error(`serve exited with ${code}`);
      const response = await fetch(url);
      expect(response.status).toBeLessThan(500);
      // It listens before indexing, then reports the first build as ready with every file read.
      const health = await waitReady(url);
      expect(health?.index.state).toBe('ready');
      expect(health?.index.filesDone).toBe(health?.index.filesTotal);
      expect(health?.index.filesTotal).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('serve rejects a missing path before listening', async () => {
    const r = await cli(['serve', join(dir, 'no-such-home'), '--port', '0']);
    expect(r.code).toBe(ExitCode.badPath);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no such file or directory');
  });
});
