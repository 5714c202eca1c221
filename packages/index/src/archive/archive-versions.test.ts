/**
 * The archive's promise when a transcript loses bytes on disk (issue 36, "nothing lost"): a file that shrinks, is
 * replaced or stops parsing keeps its last complete version, shown and archived, with an issue; a file that parses
 * again is read normally; a moved project folder is the same session.
 */
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { type AgentIndex, openIndex } from '../index.js';
import { lossMessage } from './versions.js';

const SESSION = '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc';
const PROJECT = '-home-user-proj-files';
const GEMINI_HOME = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../core/test/fixtures/gemini/0.20.2/.gemini',
);
const GEMINI_CHAT =
  'tmp/c6138ce613cdff4f5c8df271f7aeaa0ec87da1af44567d3278b5308c93e472e3/chats/session-2026-11-23T00-27-988e30d3.json';

let dir: string;
let home: string;
let index: AgentIndex;
beforeEach(() => {
  ({ dir, home } = copySamplesHome('agentdash-versions-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a user sees of a session: its summary's counts and title, and its loaded calls. */
async function seen(ix: AgentIndex, ref: string) {
  const summary = ix.getSession(ref);
  const loaded = await ix.loadSession(ref);
  return {
    title: summary?.title,
    toolCalls: summary?.toolCalls,
    messages: summary?.messages,
    calls: loaded.calls.map((c) => c.id),
  };
}

function issuesOf(ix: AgentIndex, code: string) {
  return ix.issues().filter((i) => i.code === code);
}

describe('the message of a file held at its last complete version', () => {
  it('counts lost records by id with the count of every record beside it, so its figures agree', () => {
    const ids = new Set(Array.from({ length: 61 }, (_, i) => `u${i}`));
    // Before: "lost 38 of its 61 records" beside "shown: 107 records" in show's versions line.
    expect(lossMessage({ ids, records: 107, reason: 'shrank from 90 to 40 bytes' }, 38, true, undefined, 0)).toBe(
      'shrank from 90 to 40 bytes and lost 38 of its 61 records with an id, of 107 in all: its last complete version is shown, and the copy on disk is kept beside it in the archive',
    );
    expect(lossMessage({ ids: new Set(), records: 9, reason: 'was replaced' }, 4, false, undefined, 0)).toBe(
      'was replaced and lost 4 of its 9 records, which were not archived: the copy on disk is shown',
    );
  });
});

describe('a transcript that loses bytes on disk', () => {
  it('truncated, then deleted: the session keeps every call, with an issue naming the file', async () => {
    const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
    await index.refresh([home]);
    const before = await seen(index, SESSION);
    expect(before.toolCalls).toBe(25);

    const bytes = readFileSync(file);
    const size = bytes.length;
    const cut = Math.floor(size / 3);
    // the bytes after the last line end before the cut: the unfinished line the cut left
    const unfinished = cut - (bytes.subarray(0, cut).lastIndexOf(0x0a) + 1);
    truncateSync(file, cut);
    const report = await index.refresh([home]);
    expect(report.newIssues).toBe(1);
    expect(await seen(index, SESSION)).toEqual(before);
    const [issue] = issuesOf(index, 'version_kept');
    expect(issue).toMatchObject({ file, line: 0, sessionId: SESSION });
    expect(issue?.message).toBe(
      `shrank from ${size} to ${cut} bytes and lost 47 of its 68 records with an id, of 119 in all (its last ${unfinished} bytes are unfinished: caught mid-write?): its last complete version is shown, and the copy on disk is kept beside it in the archive`,
    );
    expect(index.archiveSize().versions).toBe(1);

    rmSync(file);
    await index.refresh([home]);
    expect(await seen(index, SESSION)).toEqual(before);
    expect(index.getSession(SESSION)?.archived).toBe(true);
    expect(index.archiveSize().versions).toBe(1);
  });

  it('held, its copy on disk appended to: the new bytes are kept beside it, nothing is read again', async () => {
    const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    await index.refresh([home]);
    const before = await seen(index, SESSION);
    writeFileSync(file, `${lines.slice(0, 10).join('\n')}\n`);
    await index.refresh([home]);
    const held = index.archiveSize();
    const more = `${lines.slice(10, 20).join('\n')}\n`;
    appendFileSync(file, more);
    const report = await index.refresh([home]);
    expect(report).toMatchObject({ filesParsed: 0, bytesParsed: 0 });
    expect(index.archiveSize()).toMatchObject({ versions: 1, raw: held.raw + Buffer.byteLength(more) });
    expect(await seen(index, SESSION)).toEqual(before);
  });

  it('a file that holds everything again is read normally: the kept copy and the issue go', async () => {
    const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
    const bytes = readFileSync(file);
    await index.refresh([home]);
    const before = await seen(index, SESSION);
    writeFileSync(file, bytes.subarray(0, 1000));
    await index.refresh([home]);
    expect(await seen(index, SESSION)).toEqual(before);

    writeFileSync(file, bytes);
    const report = await index.refresh([home]);
    expect(report.filesParsed).toBe(1);
    expect(await seen(index, SESSION)).toEqual(before);
    expect(issuesOf(index, 'version_kept')).toEqual([]);
    expect(index.archiveSize().versions).toBe(0);
  });
});

describe('a Gemini .json rewritten whole', () => {
  let gemini: string;
  let chat: string;
  beforeEach(() => {
    gemini = join(mkdtempSync(join(tmpdir(), 'agentdash-versions-gemini-')), '.gemini');
    cpSync(GEMINI_HOME, gemini, { recursive: true });
    chat = join(gemini, GEMINI_CHAT);
  });
  afterEach(() => rmSync(dirname(gemini), { recursive: true, force: true }));

  const sessionOf = (ix: AgentIndex) => {
    const s = ix.listSessions({ paths: [chat] });
    expect(s).toHaveLength(1);
    return (s[0] as { key: string }).key;
  };

  it.each([
    [
      'cut short half way through a rewrite, then left so',
      (text: string) => text.slice(0, Math.floor(text.length / 2)),
      /^shrank from N to N bytes and lost N of its N records(?: with an id, of N in all)? \(invalid_json at line N: truncated: the session document ends before its JSON does/,
    ],
    [
      'rewritten with the wrong shape',
      () => '{"sessionId": 1, "messages": "none"}',
      // its messages, no list, kept as a record of their own and named as the reason
      /^shrank from N to N bytes and lost N of its N records(?: with an id, of N in all)? \(unknown_record at line N: unknown Gemini entry "\(not a Gemini record\)" kept as raw data\): its last complete version is shown/,
    ],
  ])('%s: keeps its last complete version and says so; parses again later', async (_, broken, why) => {
    const text = readFileSync(chat, 'utf8');
    await index.refresh([gemini]);
    const key = sessionOf(index);
    const before = await seen(index, key);
    expect(before.calls.length).toBeGreaterThan(0);

    writeFileSync(chat, broken(text));
    // last written longer ago than a rewrite takes (core's WRITE_SETTLE_MS)
    utimesSync(chat, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await index.refresh([gemini]);
    expect(await seen(index, key)).toEqual(before);
    const [kept] = issuesOf(index, 'version_kept');
    expect(kept).toMatchObject({ file: chat, line: 0 });
    expect(kept?.message.replace(/\d+/g, 'N')).toMatch(why);
    expect(index.archiveSize().versions).toBe(1);

    rmSync(chat);
    await index.refresh([gemini]);
    expect(await seen(index, key)).toEqual(before);

    writeFileSync(chat, text);
    await index.refresh([gemini]);
    expect(await seen(index, key)).toEqual(before);
    expect(issuesOf(index, 'version_kept')).toEqual([]);
    expect(index.archiveSize().versions).toBe(0);
  });
});

describe('a Gemini .json caught mid-rewrite', () => {
  it('shows its last version without a word, and reads it again once the rewrite is done', async () => {
    const gemini = join(dir, 'mid-rewrite', '.gemini');
    cpSync(GEMINI_HOME, gemini, { recursive: true });
    const chat = join(gemini, GEMINI_CHAT);
    const text = readFileSync(chat, 'utf8');
    await index.refresh([gemini]);
    const [key] = index.listSessions({ paths: [chat] }).map((s) => s.key);
    const before = await seen(index, key ?? '');
    expect(before.calls.length).toBeGreaterThan(0);

    // Gemini CLI writes the whole document again at each message: a look in the middle finds half of it, just written
    writeFileSync(chat, text.slice(0, Math.floor(text.length / 2)));
    const report = await index.refresh([gemini]);
    expect({
      issues: report.issues,
      stored: index.issues(),
      versions: index.archiveSize().versions,
      seen: await seen(index, key ?? ''),
      // read again once it settles (the live server's HeldFiles asks for it)
      held: index.heldWhileWriting([chat]),
    }).toEqual({ issues: 0, stored: [], versions: 0, seen: before, held: [chat] });

    // left so past the time a rewrite takes (its client killed): held at its last version, and said
    utimesSync(chat, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await index.refresh([gemini]);
    expect(index.issues().map((i) => [i.code, i.file])).toEqual([['version_kept', chat]]);
    expect(await seen(index, key ?? '')).toEqual(before);

    // the rewrite done, one more message in it
    const grown = JSON.parse(text) as { messages: unknown[] };
    grown.messages.push({
      id: 'after-the-rewrite',
      timestamp: '2026-11-23T01:00:00.000Z',
      type: 'user',
      content: 'one more',
    });
    writeFileSync(chat, JSON.stringify(grown, null, 2));
    await index.refresh([gemini]);
    const after = await seen(index, key ?? '');
    expect({ stored: index.issues(), held: index.heldWhileWriting([chat]), calls: after.calls }).toEqual({
      stored: [],
      held: [],
      calls: before.calls,
    });
    expect(after.messages).toBe((before.messages ?? 0) + 1);
  });
});

describe('a project folder renamed', () => {
  it('is the same session: one entry, its calls, its archive', async () => {
    await index.refresh([home]);
    const clean = openIndex({ dbPath: join(dir, 'clean.sqlite') });
    const projects = join(home, 'projects');
    renameSync(join(projects, PROJECT), join(projects, '-home-user-proj-moved'));
    await index.refresh([home]);
    await clean.refresh([home]);
    const listed = index.listSessions().filter((s) => s.id === SESSION);
    expect(listed.map((s) => [s.projectDir, s.ref, s.toolCalls, s.archived])).toEqual([
      [join(projects, '-home-user-proj-moved'), SESSION, 25, false],
    ]);
    expect(await seen(index, SESSION)).toEqual(await seen(clean, SESSION));
    expect(index.stats()).toEqual(clean.stats());
    expect(index.archiveSize()).toEqual(clean.archiveSize());
    clean.close();
  });

  it('copied then deleted (another inode), or seen gone by one refresh and back by the next: the same session', async () => {
    await index.refresh([home]);
    const before = await seen(index, SESSION);
    const projects = join(home, 'projects');
    const aside = join(dir, 'aside');
    renameSync(join(projects, PROJECT), aside);
    await index.refresh([home]);
    expect(index.getSession(SESSION)?.archived).toBe(true);
    cpSync(aside, join(projects, '-home-user-proj-moved'), { recursive: true });
    rmSync(aside, { recursive: true });
    await index.refresh([join(projects, '-home-user-proj-moved')]);
    expect(
      index
        .listSessions()
        .filter((s) => s.id === SESSION)
        .map((s) => [s.ref, s.archived]),
    ).toEqual([[SESSION, false]]);
    expect(await seen(index, SESSION)).toEqual(before);
  });
});

describe('forgetting a held file', () => {
  it('drops its kept version; the copy on disk is read as it is', async () => {
    const file = join(home, 'projects', PROJECT, `${SESSION}.jsonl`);
    await index.refresh([home]);
    truncateSync(file, 45112);
    await index.refresh([home]);
    expect(index.archiveSize().versions).toBe(1);
    await index.forgetSession(SESSION);
    expect(index.archiveSize().versions).toBe(0);
    await index.refresh([home]);
    const now = await seen(index, SESSION);
    expect([now.toolCalls, now.calls.length]).toEqual([4, 4]);
    expect(issuesOf(index, 'version_kept')).toEqual([]);
  });
});

describe('an index made before versions were kept (schema 26)', () => {
  it('opens with its archive, and holds a file that loses records from then on', async () => {
    const dbPath = join(dir, 'index.sqlite');
    await index.refresh([home]);
    const before = await seen(index, SESSION);
    const archive = index.archiveSize();
    index.close();
    const db = new Database(dbPath);
    // As schema 26 had it: no versions, and archived files without their agent (step 29).
    db.exec('DROP TABLE archive_versions');
    db.exec('ALTER TABLE archive_files DROP COLUMN agent; ALTER TABLE archive_files DROP COLUMN headless');
    db.pragma('user_version = 26');
    db.close();

    index = openIndex({ dbPath });
    expect(index.archiveSize()).toEqual(archive);
    truncateSync(join(home, 'projects', PROJECT, `${SESSION}.jsonl`), 45112);
    await index.refresh([home]);
    expect(await seen(index, SESSION)).toEqual(before);
    expect(index.archiveSize().versions).toBe(1);
  });
});
