import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AGENT,
  contentBlocks,
  SESSION,
  toolResult,
  toolUse,
  writeDemoHome,
  writeLines,
} from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentIndex,
  AmbiguousSessionError,
  defaultDbPath,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  openIndex,
  toFtsQuery,
} from './index.js';
import { assertSqliteFile, INDEX_APPLICATION_ID } from './schema/db-file.js';
import { SCHEMA_VERSION } from './schema/schema.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

let dir: string;
let index: AgentIndex;
const open = (name = 'index.sqlite', onWarning?: (m: string) => void) =>
  openIndex({ dbPath: join(dir, 'db', name), ...(onWarning ? { onWarning } : {}) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-index-'));
  index = open();
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Largest sample main-session file with tool calls, copied into a fresh project folder. */
function copySampleSession(): { path: string; bytes: Buffer } {
  const projects = join(samples, 'projects');
  let best: { path: string; size: number } | undefined;
  for (const project of readdirSync(projects)) {
    for (const name of readdirSync(join(projects, project))) {
      if (!name.endsWith('.jsonl') || name.startsWith('agent-')) continue;
      const path = join(projects, project, name);
      const size = statSync(path).size;
      const text = readFileSync(path, 'utf8');
      if (text.includes('"tool_use"') && size < 400_000 && (!best || size > best.size)) best = { path, size };
    }
  }
  if (!best) throw new Error('no sample session');
  const target = join(dir, 'home', 'projects', '-home-user-proj-copy', basename(best.path));
  cpSync(best.path, target);
  return { path: target, bytes: readFileSync(best.path) };
}

/** Unique tool_use ids and is_error results of a file, counted with plain JSON.parse. */
function countCalls(text: string): { calls: number; errors: number } {
  const calls = new Set<string>();
  const errors = new Map<string, boolean>();
  for (const { recordType, block } of contentBlocks(text)) {
    if (recordType === 'assistant' && block.type === 'tool_use' && block.id) calls.add(block.id);
    if (recordType === 'user' && block.type === 'tool_result' && block.tool_use_id && !errors.has(block.tool_use_id)) {
      errors.set(block.tool_use_id, block.is_error === true);
    }
  }
  return { calls: calls.size, errors: [...calls].filter((id) => errors.get(id) === true).length };
}

describe('defaultDbPath', () => {
  it('prefers AGENTDASH_DB, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(defaultDbPath({ AGENTDASH_DB: '/x/db.sqlite' }, '/home/u', 'linux')).toBe('/x/db.sqlite');
    expect(defaultDbPath({ XDG_DATA_HOME: '/data' }, '/home/u', 'linux')).toBe(
      join('/data', 'agentdash', 'index.sqlite'),
    );
    expect(defaultDbPath({}, '/home/u', 'linux')).toBe(join('/home/u', '.local', 'share', 'agentdash', 'index.sqlite'));
  });
});

describe('toFtsQuery', () => {
  it('quotes words and phrases so user text is never FTS syntax', () => {
    expect(toFtsQuery('npm test')).toBe('"npm" "test"');
    expect(toFtsQuery('"exit code" foo-bar')).toBe('"exit code" "foo-bar"');
    expect(toFtsQuery('pric*')).toBe('"pric"*');
    expect(toFtsQuery('say "hi')).toBe('"say" """hi"');
  });

  it('makes a CJK word a phrase of its characters, alone, among other words, quoted and as a prefix', () => {
    expect(toFtsQuery('数据库')).toBe('"数 据 库"');
    expect(toFtsQuery('数据库 error')).toBe('"数 据 库" "error"');
    expect(toFtsQuery('"连接 失败" データ* 연결이')).toBe('"连 接 失 败" "デ ー タ"* "연 결 이"');
    expect(toFtsQuery('tauri文件')).toBe('"tauri 文 件"');
  });
});

describe('incremental refresh', () => {
  it('parses a file once, then 0 bytes; an append parses only the new bytes', async () => {
    const { path, bytes } = copySampleSession();
    const lines = bytes.toString('utf8').split('\n');
    const half = Math.floor(lines.length / 2);
    const first = `${lines.slice(0, half).join('\n')}\n`;
    writeFileSync(path, first);
    const home = join(dir, 'home');

    const r1 = await index.refresh([home]);
    expect(r1).toMatchObject({ files: 1, filesParsed: 1, bytesParsed: Buffer.byteLength(first) });
    const r2 = await index.refresh([home]);
    expect(r2).toMatchObject({ files: 1, filesParsed: 0, bytesParsed: 0, records: 0 });

    const rest = bytes.subarray(Buffer.byteLength(first));
    appendFileSync(path, rest);
    const r3 = await index.refresh([home]);
    expect(r3.filesParsed).toBe(1);
    expect(r3.bytesParsed).toBe(rest.length);

    const expected = countCalls(bytes.toString('utf8'));
    const stats = index.stats({ paths: [home] });
    expect(stats.calls).toBe(expected.calls);
    expect(stats.errors).toBe(expected.errors);
    const [session] = index.listSessions({ paths: [home] });
    expect(session?.toolCalls).toBe(expected.calls);
  });

  it('holds back an incomplete last line and reads it once it is finished', async () => {
    const { path, bytes } = copySampleSession();
    const text = bytes.toString('utf8');
    const lines = text.split('\n').filter((l) => l !== '');
    const cut = Math.floor(lines.length / 2);
    const partialLine = lines[cut] ?? '';
    const head = `${lines.slice(0, cut).join('\n')}\n`;
    const partial = partialLine.slice(0, Math.floor(partialLine.length / 2));
    writeFileSync(path, head + partial);
    const home = join(dir, 'home');

    const r1 = await index.refresh([home]);
    expect(r1.bytesParsed).toBe(Buffer.byteLength(head + partial));
    expect(r1.newIssues).toBe(0);
    const r2 = await index.refresh([home]);
    expect(r2.bytesParsed).toBe(0);

    appendFileSync(path, `${partialLine.slice(partial.length)}\n${lines.slice(cut + 1).join('\n')}\n`);
    const r3 = await index.refresh([home]);
    // Re-read from the start of the held-back line.
    expect(r3.bytesParsed).toBe(statSync(path).size - Buffer.byteLength(head));
    expect(r3.newIssues).toBe(0);
    const expected = countCalls(text);
    expect(index.stats({ paths: [home] }).calls).toBe(expected.calls);
    expect(index.issues({ paths: [home] })).toEqual([]);
  });

  it('re-reads a truncated file and a replaced file from the start; keeps a deleted one until forgotten', async () => {
    const { path, bytes } = copySampleSession();
    const home = join(dir, 'home');
    await index.refresh([home]);
    const full = countCalls(bytes.toString('utf8'));
    expect(index.stats({ paths: [home] }).calls).toBe(full.calls);

    // Truncated: shorter than the stored offset. Read again, it lost records: the file is held at its last
    // complete version (archive-versions.test.ts).
    const lines = bytes.toString('utf8').split('\n');
    const short = `${lines.slice(0, Math.floor(lines.length / 3)).join('\n')}\n`;
    writeFileSync(path, short);
    const r1 = await index.refresh([home]);
    expect(r1.bytesParsed).toBe(Buffer.byteLength(short));
    expect(index.stats({ paths: [home] }).calls).toBe(full.calls);
    expect(index.issues().map((i) => i.code)).toEqual(['version_kept']);

    // Replaced: a new inode with the full content again.
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
    const r2 = await index.refresh([home]);
    expect(r2.filesParsed).toBe(1);
    expect(r2.bytesParsed).toBe(bytes.length);
    expect(index.stats({ paths: [home] }).calls).toBe(full.calls);

    // Rewritten in place (same inode, not shorter): different bytes before the offset → re-read.
    const rewritten = Buffer.from(bytes);
    const at = rewritten.indexOf(Buffer.from('"timestamp":"'));
    rewritten.write('"timestamp":"1999', at);
    writeFileSync(path, rewritten);
    const later = new Date(Date.now() + 5000);
    utimesSync(path, later, later); // a later write (timestamps are coarse; same size, same inode)
    const r25 = await index.refresh([home]);
    expect(r25.bytesParsed).toBe(bytes.length);

    // Deleted: the session stays, read from the archive (archive.test.ts); without the archive, it disappears.
    rmSync(path);
    const kept = await index.refresh([home]);
    expect(kept).toMatchObject({ filesRemoved: 0, archivedFiles: 1 });
    expect(index.stats({ paths: [home] }).calls).toBe(full.calls);
    await index.forgetSession(index.listSessions({ paths: [home] })[0]?.id ?? '');
    const r3 = await index.refresh([home]);
    expect(r3.filesRemoved).toBe(0);
    expect(r3.archivedFiles).toBe(0);
    expect(index.listSessions({ paths: [home] })).toEqual([]);
    expect(index.stats({ paths: [home] }).calls).toBe(0);
    expect(await index.search('the', { paths: [home] })).toEqual([]);
  });

  it('classifies a call again when its result arrives later, and counts a copied call once', async () => {
    const home = join(dir, 'home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    // Written just now: its newest record's own timestamp is recent, so the session is live and the call pending.
    const t0 = Date.now();
    const base = { sessionId: SESSION, timestamp: new Date(t0).toISOString() };
    writeLines(file, [toolUse({ ...base, uuid: 'a1' }, 'm1', 'toolu_x', 'Bash', { command: 'false' })]);
    await index.refresh([home]);
    expect(index.calls({ paths: [home] })).toMatchObject([{ callId: 'toolu_x', status: 'pending' }]);
    // Seen from later, when nothing has been written for more than 2 minutes, it is unanswered.
    const later = openIndex({ dbPath: join(dir, 'db', 'index.sqlite'), now: () => Date.now() + 10 * 60_000 });
    expect(later.calls({ paths: [home] })).toMatchObject([{ callId: 'toolu_x', status: 'unanswered' }]);
    later.close();

    appendFileSync(
      file,
      `${toolResult({ ...base, uuid: 'r1', timestamp: new Date(t0 + 2500).toISOString() }, 'toolu_x', 'Exit code 1', true)}\n`,
    );
    await index.refresh([home]);
    const [row] = index.calls({ paths: [home] });
    expect(row).toMatchObject({ status: 'error', durationMs: 2500 });
    expect(row?.summary).toMatch(/^Bash false/);

    // A resumed session copies the call into its own file: still one call.
    const copy = join(home, 'projects', '-p', 'aaaaaaaa-0000-4000-8000-000000000000.jsonl');
    writeLines(copy, [
      toolUse({ ...base, sessionId: 'aaaaaaaa-0000-4000-8000-000000000000', uuid: 'a1' }, 'm1', 'toolu_x', 'Bash', {
        command: 'false',
      }),
    ]);
    await index.refresh([home]);
    expect(index.stats({ paths: [home] })).toMatchObject({ sessions: 2, calls: 1, errors: 1 });
  });

  it('a subagent file refreshed on its own is not moved or re-read', async () => {
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await index.refresh([demo.home]);
    const again = await index.refresh([demo.sub]);
    expect(again).toMatchObject({ files: 1, filesParsed: 0, bytesParsed: 0 });
    expect(index.sessionFiles(SESSION)?.subagents[0]?.projectDir).toBe(demo.project);
    const extra = `${toolUse({ sessionId: SESSION, uuid: 's9', timestamp: '2026-01-02T10:00:09.000Z', isSidechain: true, agentId: AGENT }, 'm9', 'toolu_more', 'Bash', { command: 'ls' })}\n`;
    appendFileSync(demo.sub, extra);
    const grown = await index.refresh([demo.sub]);
    expect(grown.bytesParsed).toBe(Buffer.byteLength(extra));
    expect(index.getSession(SESSION)?.toolCalls).toBe(4);
  });

  it('pairs a result that was indexed before its call', async () => {
    const home = join(dir, 'home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    const base = { sessionId: SESSION, timestamp: '2026-01-02T10:00:00.000Z' };
    writeLines(file, [toolResult({ ...base, uuid: 'r1' }, 'toolu_y', 'no such file', true)]);
    await index.refresh([home]);
    expect(index.stats({ paths: [home] }).calls).toBe(0);
    appendFileSync(file, `${toolUse({ ...base, uuid: 'a1' }, 'm1', 'toolu_y', 'Read', { file_path: '/x' })}\n`);
    await index.refresh([home]);
    expect(index.stats({ paths: [home] })).toMatchObject({ calls: 1, paired: 1, errors: 1 });
  });
});

describe('a first refresh', () => {
  it('commits its first file at once, so that another connection lists a session while the rest is read', async () => {
    const seen: number[] = [];
    const report = await index.refresh([samples], {
      parseWorkers: 0,
      onProgress: (p) => {
        if (p.filesDone !== 1) return;
        const reader = new Database(join(dir, 'db', 'index.sqlite'), { readonly: true });
        try {
          seen.push(reader.prepare('SELECT count(*) FROM sessions').pluck().get() as number);
        } finally {
          reader.close();
        }
      },
    });
    expect(report.files).toBeGreaterThan(10);
    expect(seen).toEqual([1]);
  });
});

describe('sessions, search, issues', () => {
  it('summarises sessions and finds text only in a tool output and only in a subagent file', async () => {
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'zanzibarquux', subagentOnlyWord: 'quokkafrost' });
    await index.refresh([demo.home]);
    const [session] = index.listSessions({ paths: [demo.home] });
    expect(session).toMatchObject({
      id: SESSION,
      projectPath: '/home/user/proj/demo',
      title: 'Please run the tests and survey the code.',
      titleSource: 'first-prompt',
      toolCalls: 3,
      errors: 1,
      versions: ['2.1.330'],
      models: ['claude-opus-5-5'],
      subagents: 1,
      // Just written, but its records are from long ago and nothing was appended while watched: not live.
      isLive: false,
    });
    expect(session?.durationMs).toBe(10_000);

    const output = await index.search('zanzibarquux');
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ sessionId: SESSION, kind: 'tool-output', tool: 'Bash', callId: 'toolu_bash1' });
    expect(output[0]?.snippet).toContain(`${HIGHLIGHT_START}zanzibarquux${HIGHLIGHT_END}`);

    const sub = await index.search('quokkafrost');
    expect(sub).toHaveLength(1);
    expect(sub[0]).toMatchObject({ sessionId: SESSION, kind: 'assistant', agentId: AGENT });
    expect(sub[0]?.file).toBe(demo.sub);

    expect(await index.search('zanzibarquux', { tool: 'Read' })).toEqual([]);
    expect((await index.search('npm test', { kind: 'tool-input' }))[0]).toMatchObject({ tool: 'Bash' });

    const loaded = await index.loadSession(SESSION);
    expect(loaded.calls).toHaveLength(3);
    expect(index.getSession(SESSION.slice(0, 6))?.id).toBe(SESSION);
    expect(index.sessionFiles(SESSION)?.subagents).toHaveLength(1);
  });

  it('stores malformed lines as issues with file and line', async () => {
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    appendFileSync(demo.main, '{not json\n');
    const report = await index.refresh([demo.home]);
    expect(report.issues).toBe(1);
    expect(index.issues({ sessionId: SESSION })).toMatchObject([{ code: 'invalid_json', file: demo.main, line: 7 }]);
    expect(index.getSession(SESSION)?.issues).toBe(1);
  });

  it('rejects an ambiguous prefix', async () => {
    const home = join(dir, 'home');
    const base = { timestamp: '2026-01-02T10:00:00.000Z' };
    for (const id of ['abc11111-0000-4000-8000-000000000000', 'abc22222-0000-4000-8000-000000000000']) {
      writeLines(join(home, 'projects', '-p', `${id}.jsonl`), [
        toolUse({ ...base, sessionId: id, uuid: `u-${id}` }, 'm', `t-${id}`, 'Bash', { command: 'ls' }),
      ]);
    }
    await index.refresh([home]);
    expect(() => index.getSession('abc')).toThrow(AmbiguousSessionError);
    expect(index.getSession('abc1')?.id).toBe('abc11111-0000-4000-8000-000000000000');
    expect(index.getSession('zzz')).toBeUndefined();
  });
});

describe('database file', () => {
  it('moves a corrupt database aside and rebuilds it, with a warning', async () => {
    index.close();
    const dbPath = join(dir, 'db', 'index.sqlite');
    // Our index (its header stamped with our application_id), its pages after the header overwritten.
    const bytes = readFileSync(dbPath);
    bytes.fill('damage: text where the pages should be. ', 100);
    writeFileSync(dbPath, bytes);
    const warnings: string[] = [];
    index = open('index.sqlite', (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unusable.*rebuilt/);
    expect(readdirSync(join(dir, 'db')).some((n) => n.includes('.corrupt-'))).toBe(true);
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    const report = await index.refresh([demo.home]);
    expect(report.sessions).toBe(1);
  });

  it('refuses an index a newer AgentDash wrote, and leaves it as it is (its archive stays reachable)', async () => {
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await index.refresh([demo.home]);
    index.close();
    const dbPath = join(dir, 'db', 'index.sqlite');
    const raw = new Database(dbPath);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(dbPath);
    const warnings: string[] = [];
    expect(() => open('index.sqlite', (m) => warnings.push(m))).toThrow(
      expect.objectContaining({
        name: 'NewerIndexError',
        code: 'INDEX_UNAVAILABLE',
        message: `the index ${dbPath} was written by a newer AgentDash (schema ${SCHEMA_VERSION + 1}; this one knows up to ${SCHEMA_VERSION}). Upgrade AgentDash, or choose another --db path; the index is left as it is`,
      }),
    );
    expect(warnings).toEqual([]);
    expect(readdirSync(join(dir, 'db')).filter((n) => n.includes('.corrupt-'))).toEqual([]);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    // Back at this program's version (the newer one's work undone), the same file opens with its sessions.
    const back = new Database(dbPath);
    back.pragma(`user_version = ${SCHEMA_VERSION}`);
    back.close();
    index = open('index.sqlite');
    expect(index.listSessions()).toHaveLength(1);
  });

  it.each([
    ['a transcript', '{"type":"user","message":{"role":"user","content":"hi"}}\n', 0o644],
    ['a read-only note', '# notes\n\nnothing to see\n', 0o444],
    ['a file shorter than the SQLite header', 'SQLite', 0o644],
  ])('never moves or writes %s given as the database, and says it is not an index', (_, text, mode) => {
    const victim = join(dir, 'victim.jsonl');
    writeFileSync(victim, text, { mode });
    const warnings: string[] = [];
    expect(() => openIndex({ dbPath: victim, onWarning: (m) => warnings.push(m) })).toThrow(
      expect.objectContaining({
        name: 'NotAnIndexError',
        code: 'INDEX_UNAVAILABLE',
        message: `${victim} is not an AgentDash index database (it does not start with the SQLite header); choose another --db path`,
      }),
    );
    expect(readFileSync(victim, 'utf8')).toBe(text);
    expect(statSync(victim).mode & 0o777).toBe(mode);
    expect(readdirSync(dir).sort()).toEqual(['db', 'victim.jsonl']);
    expect(warnings).toEqual([]);
  });

  it('lets a new index another process is writing through (zeros where its header will be), refuses a file of zeros', () => {
    // What a second process can read, without SQLite's locks, of a new index the first is checkpointing: the file
    // extended, page 1 not written yet. Before, that read as "not an AgentDash index" and the second process failed.
    const starting = join(dir, 'starting.sqlite');
    writeFileSync(starting, Buffer.alloc(8192));
    expect(() => assertSqliteFile(starting)).not.toThrow();
    // Opened for real, a file of zeros is no database: refused, never written or moved.
    expect(() => openIndex({ dbPath: starting })).toThrow(
      expect.objectContaining({ name: 'NotAnIndexError', code: 'INDEX_UNAVAILABLE' }),
    );
    expect(readFileSync(starting).equals(Buffer.alloc(8192))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['db', 'starting.sqlite']);
  });

  it("never writes into another program's SQLite database", () => {
    const foreign = join(dir, 'places.sqlite');
    const raw = new Database(foreign);
    raw.exec("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.com')");
    raw.close();
    const before = readFileSync(foreign);
    expect(() => openIndex({ dbPath: foreign })).toThrow(
      `${foreign} is not an AgentDash index database (it is an SQLite database of another program); choose another --db path`,
    );
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['db', 'places.sqlite']);
  });

  it.each([
    ['with a table named files', 'CREATE TABLE files (path TEXT); CREATE TABLE sessions (id TEXT)', 0],
    ['with our tables and a user_version of 42', 'CREATE TABLE files (path TEXT); CREATE TABLE sessions (id TEXT)', 42],
    ['without tables but with a user_version of 7', '', 7],
  ])("never writes into nor moves another program's SQLite database %s", (_, sql, userVersion) => {
    const foreign = join(dir, 'other.sqlite');
    const raw = new Database(foreign);
    if (sql !== '') raw.exec(sql);
    raw.pragma(`user_version = ${userVersion}`);
    raw.close();
    const before = readFileSync(foreign);
    const warnings: string[] = [];
    expect(() => openIndex({ dbPath: foreign, onWarning: (m) => warnings.push(m) })).toThrow(
      expect.objectContaining({
        name: 'NotAnIndexError',
        message: `${foreign} is not an AgentDash index database (it is an SQLite database of another program); choose another --db path`,
      }),
    );
    // Not even the journal mode (WAL writes the header's bytes 18-19).
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['db', 'other.sqlite']);
    expect(warnings).toEqual([]);
  });

  it('stamps its application_id on a new index and on an index made before the stamp, which it still opens', () => {
    const dbPath = join(dir, 'db', 'index.sqlite');
    index.close();
    const stamped = new Database(dbPath);
    expect(stamped.pragma('application_id', { simple: true })).toBe(INDEX_APPLICATION_ID);
    // An index of an earlier release: no stamp.
    stamped.pragma('application_id = 0');
    stamped.close();
    index = open();
    index.close();
    const again = new Database(dbPath, { readonly: true });
    expect([again.pragma('application_id', { simple: true }), again.pragma('user_version', { simple: true })]).toEqual([
      INDEX_APPLICATION_ID,
      SCHEMA_VERSION,
    ]);
    again.close();
    index = open();
  });

  it('never moves a damaged SQLite database that is not recognisably ours', () => {
    const damaged = join(dir, 'damaged.sqlite');
    const raw = new Database(damaged);
    raw.exec("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.com')");
    raw.close();
    const bytes = readFileSync(damaged);
    bytes.fill('damage ', 100);
    writeFileSync(damaged, bytes);
    expect(() => openIndex({ dbPath: damaged })).toThrow(expect.objectContaining({ name: 'NotAnIndexError' }));
    expect(readFileSync(damaged).equals(bytes)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['damaged.sqlite', 'db']);
  });

  it('makes an index of an empty file, with 4 KiB pages', () => {
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    const fresh = openIndex({ dbPath: empty });
    fresh.close();
    const check = new Database(empty, { readonly: true });
    expect([check.pragma('user_version', { simple: true }), check.pragma('page_size', { simple: true })]).toEqual([
      SCHEMA_VERSION,
      4096,
    ]);
    check.close();
  });

  it('fails at once, naming the path, where the folder cannot be made (/proc, a file as a folder)', () => {
    writeFileSync(join(dir, 'plain'), 'x');
    const started = Date.now();
    expect(() => openIndex({ dbPath: '/proc/agentdash-nope/index.sqlite' })).toThrow(
      /^cannot use \/proc\/agentdash-nope\/index.sqlite as the index database: ENOENT/,
    );
    expect(() => openIndex({ dbPath: join(dir, 'plain', 'sub', 'index.sqlite') })).toThrow(
      expect.objectContaining({ code: 'INDEX_UNAVAILABLE', message: expect.stringMatching(/ENOTDIR/) }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('migrates an older schema version in place', async () => {
    index.close();
    const dbPath = join(dir, 'db', 'old.sqlite');
    const raw = new Database(dbPath);
    // An index as schema version 1 made it (before the stamp): its first tables only.
    raw.exec(`CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, project_dir TEXT NOT NULL,
        role TEXT NOT NULL, session_id TEXT NOT NULL);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL);
      PRAGMA user_version = 1;`);
    raw.prepare("INSERT INTO files (path, project_dir, role, session_id) VALUES ('/x.jsonl', '/', 'main', 'x')").run();
    raw.close();
    const warnings: string[] = [];
    index = open('old.sqlite', (m) => warnings.push(m));
    index.close();
    expect(warnings).toEqual([]);
    const check = new Database(dbPath);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // The derived tables are made again, empty, so that the next refresh re-reads with the new parser.
    expect(check.prepare('SELECT COUNT(*) FROM files').pluck().get()).toBe(0);
    expect(check.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'docs_call'").pluck().get()).toBe(1);
    check.close();
    index = open();
  });

  it('keeps its data between opens (a second process parses nothing)', async () => {
    const demo = writeDemoHome(join(dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await index.refresh([demo.home]);
    index.close();
    index = open();
    expect(await index.refresh([demo.home])).toMatchObject({ filesParsed: 0, bytesParsed: 0, sessions: 1 });
    expect(existsSync(join(dir, 'home', 'agentdash'))).toBe(false);
  });
});

describe('live sessions and session identity', () => {
  it('is live when records were appended while watched or its newest record is recent, not for a fresh copy', async () => {
    const home = join(dir, 'live-home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    const old = { sessionId: SESSION, timestamp: '2026-01-02T10:00:00.000Z' };
    writeLines(file, [toolUse({ ...old, uuid: 'a1' }, 'm1', 'toolu_a', 'Bash', { command: 'ls' })]);
    await index.refresh([home]);
    expect(index.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);
    expect(index.calls({ paths: [home] })).toMatchObject([{ status: 'unanswered' }]);

    // Appended an hour ago, read only now (a CLI run later): not being written now.
    appendFileSync(file, `${toolUse({ ...old, uuid: 'a0' }, 'm0', 'toolu_0', 'Bash', { command: 'id' })}\n`);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, anHourAgo, anHourAgo);
    await index.refresh([home]);
    expect(index.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);

    // A record appended (still with an old timestamp) just now: being written now.
    appendFileSync(file, `${toolUse({ ...old, uuid: 'a2' }, 'm2', 'toolu_b', 'Bash', { command: 'pwd' })}\n`);
    await index.refresh([home]);
    expect(index.listSessions({ paths: [home] })).toMatchObject([{ isLive: true }]);
    expect((await index.loadSession(SESSION)).calls.map((c) => c.status)).toEqual([
      'unanswered',
      'unanswered',
      'pending',
    ]);

    // Ten minutes later nothing more was written: no longer live.
    const later = openIndex({ dbPath: join(dir, 'db', 'index.sqlite'), now: () => Date.now() + 10 * 60_000 });
    expect(later.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);
    later.close();
  });

  it('keeps same-named files in different project folders apart, and names each by a reference', async () => {
    const home = join(dir, 'checkpoints');
    const lines = (cwd: string) => [
      JSON.stringify({
        type: 'user',
        uuid: `u-${cwd}`,
        parentUuid: null,
        sessionId: 'full',
        cwd,
        timestamp: '2026-01-02T10:00:00.000Z',
        message: { role: 'user', content: `work in ${cwd}` },
      }),
      toolUse(
        { sessionId: 'full', timestamp: '2026-01-02T10:00:01.000Z', uuid: `a-${cwd}` },
        `m-${cwd}`,
        `toolu_${cwd}`,
        'Bash',
        { command: 'ls' },
      ),
    ];
    writeLines(join(home, 'projects', 'one', 'full.jsonl'), lines('one'));
    writeLines(join(home, 'projects', 'two', 'full.jsonl'), lines('two'));
    await index.refresh([home]);
    const sessions = index.listSessions({ paths: [home] });
    expect(sessions.map((s) => [s.id, s.ref, s.title, s.toolCalls]).sort()).toEqual([
      ['full', 'full@one', 'work in one', 1],
      ['full', 'full@two', 'work in two', 1],
    ]);
    expect(() => index.getSession('full')).toThrow(/name one of them: full@one, full@two/);
    expect(() => index.getSession('fu')).toThrow(AmbiguousSessionError);
    expect(index.getSession('two/full')?.projectDir).toBe(join(home, 'projects', 'two'));
    // Looked up under a path, a bare id names the one session there.
    expect(index.getSession('full', { paths: [join(home, 'projects', 'one')] })?.ref).toBe('full@one');
    expect(index.getSession(join(home, 'projects', 'one', 'full'))?.ref).toBe('full@one');
    expect((await index.loadSession('full@one')).calls.map((c) => c.id)).toEqual(['toolu_one']);
    expect(index.sessionIdOfFile(join(home, 'projects', 'two', 'full.jsonl'))).toBe('full@two');
    expect(index.calls({ sessionId: 'full@two' }).map((c) => [c.callId, c.sessionId, c.sessionRef])).toEqual([
      ['toolu_two', 'full', 'full@two'],
    ]);
  });

  it('gives a call copied into a fork to the original session, whichever file is read first', async () => {
    const home = join(dir, 'fork-home');
    const at = (s: number) => `2026-01-02T10:00:${String(s).padStart(2, '0')}.000Z`;
    const history = (sessionId: string) => [
      toolUse({ sessionId, timestamp: at(1), uuid: 'h1' }, 'm1', 'toolu_h1', 'Bash', { command: 'ls' }),
      toolResult({ sessionId, timestamp: at(2), uuid: 'h2' }, 'toolu_h1', 'ok', false),
    ];
    // The fork's path sorts first, so it is imported first; its own first line is written later.
    const fork = '00000000-0000-4000-8000-00000000f0e4';
    const original = 'ffffffff-0000-4000-8000-0000000000a1';
    writeLines(join(home, 'projects', '-p', `${original}.jsonl`), [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: original, timestamp: at(0) }),
      ...history(original),
    ]);
    writeLines(join(home, 'projects', '-p', `${fork}.jsonl`), [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: fork, timestamp: at(30) }),
      ...history(fork),
      toolUse({ sessionId: fork, timestamp: at(31), uuid: 'f1' }, 'm9', 'toolu_f1', 'Bash', { command: 'pwd' }),
    ]);
    await index.refresh([home]);
    const calls = Object.fromEntries(index.listSessions({ paths: [home] }).map((s) => [s.id, s.toolCalls]));
    expect(calls).toEqual({ [original]: 1, [fork]: 1 });
    expect(index.calls({ sessionId: original }).map((c) => c.callId)).toEqual(['toolu_h1']);
  });
});
