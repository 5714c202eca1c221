import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySamplesHome } from '../../test/temp-home.js';
import { Archive } from '../archive/archive.js';
import { type AgentIndex, openIndex } from '../index.js';
import { spaceCjk } from '../write/cjk.js';
import { cutSnippet, DocTexts, queryTerms } from './doc-snippet.js';
import { DOC_FILE_COLUMNS, type DocFileRow, fileOfRow } from './file-of-row.js';
import { toFtsQuery } from './search.js';

describe('cutSnippet', () => {
  it('marks every query word around the best match, with ellipses where the text goes on', () => {
    const text = `${'lorem '.repeat(30)}the Quick brown fox jumps over the lazy dog ${'ipsum '.repeat(30)}`;
    expect(cutSnippet(text, toFtsQuery('quick dog'))).toBe(
      '…lorem the \u0001Quick\u0002 brown fox jumps over the lazy \u0001dog\u0002 ipsum ipsum ipsum ipsum ipsum ipsum…',
    );
  });

  it('keeps a run of symbols between its words short, and a word too long to read (a review: 20,126 characters)', () => {
    const rule = '─'.repeat(20_000);
    expect(cutSnippet(`head ${rule} tailword end`, toFtsQuery('tailword'))).toBe(
      `head ${'─'.repeat(11)}…${'─'.repeat(11)} \u0001tailword\u0002 end`,
    );
    const blob = 'A'.repeat(5_000);
    expect(cutSnippet(`key ${blob} found`, toFtsQuery('found'))).toBe(
      `key ${'A'.repeat(40)}…${'A'.repeat(40)} \u0001found\u0002`,
    );
  });

  it("starts with what the text shows before its first word: a path's slash, a tag's bracket", () => {
    // before: 'home/user/…' and 'tool_use_error>File …', the characters before the first word dropped
    expect(cutSnippet('/home/user/proj/files/missing.txt', toFtsQuery('missing'))).toBe(
      '/home/user/proj/files/\u0001missing\u0002.txt',
    );
    expect(cutSnippet('<tool_use_error>File does not exist</tool_use_error>', toFtsQuery('exist'))).toBe(
      '<tool_use_error>File does not \u0001exist\u0002</tool_use_error>',
    );
    expect(cutSnippet(`${'word '.repeat(30)}/etc/app/missing.conf ${'tail '.repeat(30)}`, toFtsQuery('missing'))).toBe(
      `…/etc/app/\u0001missing\u0002.conf${' tail'.repeat(12)}…`,
    );
    // up to the nearest space, and a few characters at most
    // what is left out before it said by '…', never half a character kept (a review: a lone surrogate, no '…')
    expect(cutSnippet('  \n  ===========>>missing', toFtsQuery('missing'))).toBe('…======>>\u0001missing\u0002');
    expect(cutSnippet('  \n  => missing', toFtsQuery('missing'))).toBe('…\u0001missing\u0002');
    expect(cutSnippet('🙂🙂🙂🙂🙂/home/ann', toFtsQuery('home'))).toBe('…🙂🙂🙂/\u0001home\u0002/ann');
    expect(cutSnippet('~/../../../../src/x y', toFtsQuery('src'))).toBe('…./../../\u0001src\u0002/x y');
  });

  it('folds case and diacritics and honours a prefix query', () => {
    expect(cutSnippet('Voilà: CAFÉ crème', toFtsQuery('cafe'))).toBe('Voilà: \u0001CAFÉ\u0002 crème');
    expect(cutSnippet('running runner ran', toFtsQuery('run*'))).toBe('\u0001running\u0002 \u0001runner\u0002 ran');
    expect(queryTerms(toFtsQuery('"two words" x*'))).toEqual([
      { text: 'two', prefix: false },
      { text: 'words', prefix: false },
      { text: 'x', prefix: true },
    ]);
  });

  it('marks a CJK word whole where its characters stand together, and a phrase only where it occurs', () => {
    expect(cutSnippet('数据很多，我们的数据库连接失败', toFtsQuery('数据库'))).toBe(
      '数据很多，我们的\u0001数据库\u0002连接失败',
    );
    expect(cutSnippet('exit now; the exit code was 1', toFtsQuery('"exit code"'))).toBe(
      'exit now; the \u0001exit code\u0002 was 1',
    );
    // a CJK character counts half a word: 32 of them around the match, not 16
    const long = `${'一'.repeat(40)}数据库${'二'.repeat(40)}`;
    const cut = cutSnippet(long, toFtsQuery('数据库'));
    expect(cut).toBe(`…一一一一\u0001数据库\u0002${'二'.repeat(25)}…`);
  });

  it('gives the start of the text when no word matches, and nothing for an empty text', () => {
    expect(cutSnippet('a b c', toFtsQuery('zzz'))).toBe('a b c');
    expect(cutSnippet('', toFtsQuery('zzz'))).toBe('');
  });
});

describe('document texts read back from transcripts', () => {
  let dir: string;
  let home: string;
  let index: AgentIndex;
  beforeEach(() => {
    ({ dir, home } = copySamplesHome('agentdash-snippet-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  });
  afterEach(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every document's text, read back from its transcript by place, as the FTS index holds its words. */
  async function checkEveryDocument(): Promise<number> {
    const db = new Database(join(dir, 'index.sqlite'), { readonly: true });
    try {
      const texts = new DocTexts(new Archive(db));
      const docs = db
        .prepare(
          `SELECT d.id, d.line, d.offset, d.part, ${DOC_FILE_COLUMNS} FROM docs d JOIN files f ON f.id = d.file_id`,
        )
        .all() as (DocFileRow & { id: number; line: number; offset: number; part: number })[];
      const inFts = db.prepare('SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?').pluck();
      let checked = 0;
      for (const doc of docs) {
        const [text = ''] = await texts.textsOf([{ ...doc, file: fileOfRow(doc) }]);
        const word = queryTerms(toFtsQuery(text.slice(0, 2000)))
          .map((t) => t.text)
          .sort((a, b) => b.length - a.length)[0];
        expect(word, `document ${doc.id} (${doc.file}:${doc.line} part ${doc.part})`).toBeDefined();
        expect(inFts.all(`"${word}"`)).toContain(doc.id);
        checked += 1;
      }
      return checked;
    } finally {
      db.close();
    }
  }

  it('finds each indexed document’s text at its place, from the file and, once the file is gone, from the archive', async () => {
    await index.refresh([home]);
    const onDisk = await checkEveryDocument();
    expect(onDisk).toBeGreaterThan(50);
    const hits = await index.search('file');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.filter((h) => !h.snippet.toLowerCase().includes('\u0001file\u0002'))).toEqual([]);

    rmSync(join(home, 'projects'), { recursive: true });
    await index.refresh([home]);
    expect(await checkEveryDocument()).toBe(onDisk);
    expect((await index.search('file')).map((h) => h.snippet)).toEqual(hits.map((h) => h.snippet));
  });
});

describe('document texts at a place holding several records', () => {
  const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../core/test/fixtures');
  let dir: string;
  let index: AgentIndex;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-snippet-place-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  });
  afterEach(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Documents (by kind) whose text read back at their place is not, word for word, what the index holds for them. */
  async function misread(): Promise<Record<string, { docs: number; misread: number }>> {
    const db = new Database(join(dir, 'index.sqlite'), { readonly: true });
    try {
      // The words each document has in the contentless index, and those of a text as the index cuts them.
      db.exec(`CREATE VIRTUAL TABLE temp.indexed USING fts5vocab(main, docs_fts, instance);
        CREATE VIRTUAL TABLE temp.one USING fts5(body, tokenize='unicode61');
        CREATE VIRTUAL TABLE temp.one_words USING fts5vocab(temp, one, instance);`);
      const docs = db
        .prepare(
          `SELECT d.id, d.line, d.offset, d.part, d.kind, ${DOC_FILE_COLUMNS} FROM docs d JOIN files f ON f.id = d.file_id`,
        )
        .all() as (DocFileRow & { id: number; line: number; offset: number; part: number; kind: string })[];
      const texts = await new DocTexts(new Archive(db)).textsOf(docs.map((d) => ({ ...d, file: fileOfRow(d) })));
      const indexed = db.prepare('SELECT term FROM temp.indexed WHERE doc = ? ORDER BY offset').pluck();
      const words = db.prepare('SELECT term FROM temp.one_words ORDER BY offset').pluck();
      const byKind: Record<string, { docs: number; misread: number }> = {};
      docs.forEach((doc, i) => {
        db.prepare('DELETE FROM temp.one').run();
        db.prepare('INSERT INTO temp.one (rowid, body) VALUES (1, ?)').run(spaceCjk(texts[i] ?? ''));
        const { docs: n = 0, misread: wrong = 0 } = byKind[doc.kind] ?? {};
        const same = words.all().join(' ') === indexed.all(doc.id).join(' ');
        byKind[doc.kind] = { docs: n + 1, misread: wrong + (same ? 0 : 1) };
      });
      return byKind;
    } finally {
      db.close();
    }
  }

  it('reads each document’s own text where a line holds a response’s text, calls and results', async () => {
    // Gemini (a JSONL line; a message of a 0.20 JSON document), OpenCode, Codex's web search with its result, and
    // Claude Code's subagent records copied into their holder's line (stored at its place); Codex's `exec --json`
    // outputs (codex/exec) too, whose items are one event a line
    const homes = ['gemini/0.61.0', 'gemini/0.20.2', 'opencode', 'codex', 'claude-progress'];
    await index.refresh(homes.map((home) => join(fixtures, home)));
    // (codex/api-fatal: a prompt and the note of its refused request; two records of kinds not known: their JSON)
    expect(await misread()).toEqual({
      assistant: { docs: 129, misread: 0 },
      prompt: { docs: 94, misread: 0 },
      thinking: { docs: 22, misread: 0 },
      'tool-input': { docs: 554, misread: 0 },
      'tool-output': { docs: 549, misread: 0 },
      note: { docs: 10, misread: 0 },
    });
  });
});
