import {
  appendFileSync,
  cpSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import { defaultDbPath, openIndex, toFtsQuery } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../cli/samples/claude-home');

const t = useTempIndex();

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
  const target = join(t.dir, 'home', 'projects', '-home-user-proj-copy', basename(best.path));
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
    const home = join(t.dir, 'home');

    const r1 = await t.index.refresh([home]);
    expect(r1).toMatchObject({ files: 1, filesParsed: 1, bytesParsed: Buffer.byteLength(first) });
    const r2 = await t.index.refresh([home]);
    expect(r2).toMatchObject({ files: 1, filesParsed: 0, bytesParsed: 0, records: 0 });

    const rest = bytes.subarray(Buffer.byteLength(first));
    appendFileSync(path, rest);
    const r3 = await t.index.refresh([home]);
    expect(r3.filesParsed).toBe(1);
    expect(r3.bytesParsed).toBe(rest.length);

    const expected = countCalls(bytes.toString('utf8'));
    const stats = t.index.stats({ paths: [home] });
    expect(stats.calls).toBe(expected.calls);
    expect(stats.errors).toBe(expected.errors);
    const [session] = t.index.listSessions({ paths: [home] });
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
    const home = join(t.dir, 'home');

    const r1 = await t.index.refresh([home]);
    expect(r1.bytesParsed).toBe(Buffer.byteLength(head + partial));
    expect(r1.newIssues).toBe(0);
    // Written just now, the line may still be being written: it is looked at again (its bytes only), still unreported.
    const r2 = await t.index.refresh([home]);
    expect([r2.bytesParsed, r2.newIssues]).toEqual([Buffer.byteLength(partial), 0]);

    appendFileSync(path, `${partialLine.slice(partial.length)}\n${lines.slice(cut + 1).join('\n')}\n`);
    const r3 = await t.index.refresh([home]);
    // Re-read from the start of the held-back line.
    expect(r3.bytesParsed).toBe(statSync(path).size - Buffer.byteLength(head));
    expect(r3.newIssues).toBe(0);
    const expected = countCalls(text);
    expect(t.index.stats({ paths: [home] }).calls).toBe(expected.calls);
    expect(t.index.issues({ paths: [home] })).toEqual([]);
  });

  it('re-reads a truncated file and a replaced file from the start; keeps a deleted one until forgotten', async () => {
    const { path, bytes } = copySampleSession();
    const home = join(t.dir, 'home');
    await t.index.refresh([home]);
    const full = countCalls(bytes.toString('utf8'));
    expect(t.index.stats({ paths: [home] }).calls).toBe(full.calls);

    // Truncated: shorter than the stored offset. Read again, it lost records: the file is held at its last
    // complete version (archive-versions.test.ts).
    const lines = bytes.toString('utf8').split('\n');
    const short = `${lines.slice(0, Math.floor(lines.length / 3)).join('\n')}\n`;
    writeFileSync(path, short);
    const r1 = await t.index.refresh([home]);
    expect(r1.bytesParsed).toBe(Buffer.byteLength(short));
    expect(t.index.stats({ paths: [home] }).calls).toBe(full.calls);
    expect(t.index.issues().map((i) => i.code)).toEqual(['version_kept']);

    // Replaced: a new inode with the full content again.
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
    const r2 = await t.index.refresh([home]);
    expect(r2.filesParsed).toBe(1);
    expect(r2.bytesParsed).toBe(bytes.length);
    expect(t.index.stats({ paths: [home] }).calls).toBe(full.calls);

    // Rewritten in place (same inode, not shorter): different bytes before the offset → re-read.
    const rewritten = Buffer.from(bytes);
    const at = rewritten.indexOf(Buffer.from('"timestamp":"'));
    rewritten.write('"timestamp":"1999', at);
    writeFileSync(path, rewritten);
    const later = new Date(Date.now() + 5000);
    utimesSync(path, later, later); // a later write (timestamps are coarse; same size, same inode)
    const r25 = await t.index.refresh([home]);
    expect(r25.bytesParsed).toBe(bytes.length);

    // Deleted: the session stays, read from the archive (archive.test.ts); without the archive, it disappears.
    rmSync(path);
    const kept = await t.index.refresh([home]);
    expect(kept).toMatchObject({ filesRemoved: 0, archivedFiles: 1 });
    expect(t.index.stats({ paths: [home] }).calls).toBe(full.calls);
    await t.index.forgetSession(t.index.listSessions({ paths: [home] })[0]?.id ?? '');
    const r3 = await t.index.refresh([home]);
    expect(r3.filesRemoved).toBe(0);
    expect(r3.archivedFiles).toBe(0);
    expect(t.index.listSessions({ paths: [home] })).toEqual([]);
    expect(t.index.stats({ paths: [home] }).calls).toBe(0);
    expect(await t.index.search('the', { paths: [home] })).toEqual([]);
  });

  it('classifies a call again when its result arrives later, and counts a copied call once', async () => {
    const home = join(t.dir, 'home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    // Written just now: its newest record's own timestamp is recent, so the session is live and the call pending.
    const t0 = Date.now();
    const base = { sessionId: SESSION, timestamp: new Date(t0).toISOString() };
    writeLines(file, [toolUse({ ...base, uuid: 'a1' }, 'm1', 'toolu_x', 'Bash', { command: 'false' })]);
    await t.index.refresh([home]);
    expect(t.index.calls({ paths: [home] })).toMatchObject([{ callId: 'toolu_x', status: 'pending' }]);
    // Seen from later, when nothing has been written for more than 2 minutes, it is unanswered.
    const later = openIndex({ dbPath: join(t.dir, 'db', 'index.sqlite'), now: () => Date.now() + 10 * 60_000 });
    expect(later.calls({ paths: [home] })).toMatchObject([{ callId: 'toolu_x', status: 'unanswered' }]);
    later.close();

    appendFileSync(
      file,
      `${toolResult({ ...base, uuid: 'r1', timestamp: new Date(t0 + 2500).toISOString() }, 'toolu_x', 'Exit code 1', true)}\n`,
    );
    await t.index.refresh([home]);
    const [row] = t.index.calls({ paths: [home] });
    expect(row).toMatchObject({ status: 'error', durationMs: 2500 });
    expect(row?.summary).toMatch(/^Bash false/);

    // A resumed session copies the call into its own file: still one call.
    const copy = join(home, 'projects', '-p', 'aaaaaaaa-0000-4000-8000-000000000000.jsonl');
    writeLines(copy, [
      toolUse({ ...base, sessionId: 'aaaaaaaa-0000-4000-8000-000000000000', uuid: 'a1' }, 'm1', 'toolu_x', 'Bash', {
        command: 'false',
      }),
    ]);
    await t.index.refresh([home]);
    expect(t.index.stats({ paths: [home] })).toMatchObject({ sessions: 1, calls: 1, errors: 1 });
    // The copy's session (no prompt, no call of its own) is one the list hides, and the statistics count it not.
    expect(t.index.listSessions({ paths: [home] }).map((s) => s.toolCalls)).toEqual([1, 0]);
    expect(t.index.listSessions({ paths: [home], hideEmpty: true })).toHaveLength(1);
  });

  it('a subagent file refreshed on its own is not moved or re-read', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await t.index.refresh([demo.home]);
    const again = await t.index.refresh([demo.sub]);
    expect(again).toMatchObject({ files: 1, filesParsed: 0, bytesParsed: 0 });
    expect(t.index.sessionFiles(SESSION)?.subagents[0]?.projectDir).toBe(demo.project);
    const extra = `${toolUse({ sessionId: SESSION, uuid: 's9', timestamp: '2026-01-02T10:00:09.000Z', isSidechain: true, agentId: AGENT }, 'm9', 'toolu_more', 'Bash', { command: 'ls' })}\n`;
    appendFileSync(demo.sub, extra);
    const grown = await t.index.refresh([demo.sub]);
    expect(grown.bytesParsed).toBe(Buffer.byteLength(extra));
    expect(t.index.getSession(SESSION)?.toolCalls).toBe(4);
  });

  it('pairs a result that was indexed before its call', async () => {
    const home = join(t.dir, 'home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    const base = { sessionId: SESSION, timestamp: '2026-01-02T10:00:00.000Z' };
    writeLines(file, [toolResult({ ...base, uuid: 'r1' }, 'toolu_y', 'no such file', true)]);
    await t.index.refresh([home]);
    expect(t.index.stats({ paths: [home] }).calls).toBe(0);
    appendFileSync(file, `${toolUse({ ...base, uuid: 'a1' }, 'm1', 'toolu_y', 'Read', { file_path: '/x' })}\n`);
    await t.index.refresh([home]);
    expect(t.index.stats({ paths: [home] })).toMatchObject({ calls: 1, paired: 1, errors: 1 });
  });
});

describe('a first refresh', () => {
  it('commits its first file at once, so that another connection lists a session while the rest is read', async () => {
    const seen: number[] = [];
    const report = await t.index.refresh([samples], {
      parseWorkers: 0,
      onProgress: (p) => {
        if (p.filesDone !== 1) return;
        const reader = new Database(join(t.dir, 'db', 'index.sqlite'), { readonly: true });
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
