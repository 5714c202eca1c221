import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '@agentdash/core/present';
import { AGENT, basesOf, nextSessionId, prompt, writeDemoHome, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { commands } from './commands/all.js';
import { SAMPLES_HOME } from './default-homes.js';
import { ExitCode } from './errors.js';
import type { EnvelopeLineJson, IndexJson, SearchJson, SessionsJson, StatsJson } from './output/json-types.js';
import { run } from './run.js';

const sb = cliSandbox();
const { cli, json } = sb;

describe('help', () => {
  it('lists the commands and gives help for each', async () => {
    const main = await run(['--help'], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: {},
      homedir: sb.emptyHome,
      now: Date.now,
    });
    expect(main).toBe(0);
    for (const command of commands) {
      const r = await cli([command.name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: agentdash ${command.name}`);
      expect(r.stdout).toContain('--json');
      // written as paragraphs of lines up to 118 characters (a terminal narrower wraps them again; a pipe does not)
      const long = r.stdout.split('\n').filter((line) => !line.startsWith('Usage: ') && line.length > 118);
      expect(long, command.name).toEqual([]);
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
    expect(human.stdout).toMatch(/^[\d,]+ files, [\d,]+ sessions; parsed 0 files \(0 B, 0 records\)/);
  });

  it('counts one file and one session in the singular (a review read "1 files, 1 sessions; parsed 1 files")', async () => {
    const one = join(sb.dir, 'one-file', 'projects', '-home-user-one');
    writeLines(join(one, `${nextSessionId()}.jsonl`), [
      prompt(basesOf('0b1e0000-0000-4000-8000-000000000001')('u1', null, 0), 'Hello.'),
    ]);
    // its own index: the sandbox's remembers the paths it was built from, which later tests rely on
    let stdout = '';
    const code = await run(['index', join(sb.dir, 'one-file'), '--db', join(sb.dir, 'one-file.sqlite')], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
      env: { CLAUDE_CONFIG_DIR: sb.emptyHome },
      homedir: sb.emptyHome,
      now: Date.now,
    });
    expect([code, stdout]).toEqual([0, expect.stringMatching(/^1 file, 1 session; parsed 1 file \(/)]);
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
    // an errored call, or a request to the model that failed (the samples' 400 and 500)
    expect(withErrors.sessions.every((s) => s.errors > 0 || (s.apiErrors ?? 0) > 0)).toBe(true);
    expect(withErrors.sessions.filter((s) => s.errors === 0).length).toBe(2);
  });

  it('draws a progress bar on stderr only when stderr is a terminal, and only while there is work', async () => {
    // a cold index of its own (the sandbox's is warm by now)
    const terminal = async (db: string) => {
      let stderr = '';
      await run(['index', SAMPLES_HOME, '--db', db], {
        stdout: { write: () => true, isTTY: true },
        stderr: { write: (s: string) => (stderr += s), isTTY: true },
        env: { CLAUDE_CONFIG_DIR: sb.emptyHome },
        homedir: sb.emptyHome,
        now: Date.now,
      });
      return stderr;
    };
    const cold = join(sb.dir, 'progress.sqlite');
    expect(await terminal(cold)).toMatch(/indexing \[[#.]+\] \d+\/\d+ files/);
    // Before: a warm run flashed "indexing [####] 37/37 files · 5.8 MiB of 5.8 MiB" and erased it (a review).
    expect(await terminal(cold)).not.toContain('indexing [');
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

    // the time line gives the list's wall time
    const time = human.stdout.split('\n').find((l) => l.startsWith('time'));
    expect(time).toContain(`(${formatDuration(withCalls.durationMs)} wall)`);
    // the counts line: "1 error", "4 errors +2 expected", for each sample session with errors
    const withErrors = sessions.filter((s) => s.errors > 0);
    expect(withErrors.some((s) => s.errors - s.expectedErrors === 1 || s.expectedErrors > 0)).toBe(true);
    for (const s of withErrors) {
      const real = s.errors - s.expectedErrors;
      const words = `${real} ${real === 1 ? 'error' : 'errors'}${s.expectedErrors > 0 ? ` +${s.expectedErrors} expected` : ''}`;
      const counts = (await cli(['show', s.id, SAMPLES_HOME])).stdout.split('\n').find((l) => l.startsWith('counts'));
      expect(counts, s.id).toContain(`, ${words}, `);
    }

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

  it("show gives a session without its main file its files' wall time, as the list does", async () => {
    const id = '410c10d6-fdc3-4c91-bc4f-74b883942e01';
    const home = mkdtempSync(join(tmpdir(), 'agentdash-mainless-'));
    try {
      const folder = join(home, 'projects', '-home-user-proj-subagents');
      cpSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-subagents', id), join(folder, id), { recursive: true });
      const listed = json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions;
      // Its subagents are its main timeline: their first to last record (before: none, in both).
      expect(listed.map((s) => [s.id, s.durationMs])).toEqual([[id, 8167]]);
      const shown = await cli(['show', id, home]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout.split('\n').find((l) => l.startsWith('time'))).toMatch(/\(8\.2 s wall\)$/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("a session without its main file is titled by its earliest subagent's prompt, in the list and in show", async () => {
    const id = '410c10d6-fdc3-4c91-bc4f-74b883942e01';
    const home = mkdtempSync(join(tmpdir(), 'agentdash-mainless-title-'));
    try {
      const folder = join(home, 'projects', '-home-user-proj-subagents');
      cpSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-subagents', id), join(folder, id), { recursive: true });
      const [listed] = json<SessionsJson>(await cli(['sessions', home, '--json'])).sessions;
      // Before: no title ("Untitled session"), though each subagent's prompt is there.
      expect(listed?.title).toMatch(/\S/);
      expect(listed?.titleSource).toBe('first-prompt');
      const shown = await cli(['show', id, home]);
      expect(shown.stdout.split('\n')[0]).toBe(listed?.title?.split('\n')[0]);
      const loaded = json<{ title?: string }>(await cli(['show', id, home, '--json']));
      expect(loaded.title).toBe(listed?.title);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('show by a subagent file path shows its whole session', async () => {
    const demo = writeDemoHome(
      join(sb.dir, 'demo-show-sub'),
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
    const home = join(sb.dir, 'demo-show');
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
    const home = join(sb.dir, 'demo-search');
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
    const home = join(sb.dir, 'demo-search-cjk');
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
    const home = join(sb.dir, 'demo-export');
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
