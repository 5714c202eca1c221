import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { type OpenBytes, openFileBytes } from '../../io/read-lines.js';
import type { TranscriptRecord } from '../../model/record.js';
import { discoverGemini } from './discover.js';
import { geminiFixtures, home020, home061, readGemini, readGeminiPath } from './test-helpers.js';

/** The full Gemini 0.61 corpus (real client, scripted API), when present. */
const corpus061 = resolve(repoRoot, '../shared/corpus-agents/gemini/0.61.0/gemini-home/.gemini');

const filesJsonl = join(home061, 'tmp/files/chats/session-2026-11-23T00-27-ca13d5f8.jsonl');
const multiJsonl = join(home061, 'tmp/multi/chats/session-2026-11-23T00-27-85ed09f1.jsonl');
const filesJson = join(
  home020,
  'tmp/6c8e5834e9089896c09e0efc10c518ca552d8e8c9fabe86bf4531e7dbfdb5d42/chats/session-2026-11-23T00-27-ae75b182.json',
);

const prompts = (records: readonly TranscriptRecord[]) =>
  records.flatMap((r) => (r.kind === 'user' && !r.isMeta && typeof r.content === 'string' ? [r.content] : []));
const responses = (records: readonly TranscriptRecord[]) =>
  new Set(records.flatMap((r) => (r.kind === 'assistant' ? [r.messageId] : []))).size;
const toolUses = (records: readonly TranscriptRecord[]) =>
  records.flatMap((r) => (r.kind === 'assistant' ? r.content.filter((b) => b.kind === 'tool-use') : []));

describe('0.61 JSONL', () => {
  it('keeps the last line of each message id, in the place of the first, and every line is a record or an issue', async () => {
    const { records, issues } = await readGeminiPath(filesJsonl);
    expect(issues).toEqual([]);
    const lines = readFileSync(filesJsonl, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ids = lines.filter((l) => typeof l.type === 'string').map((l) => l.id);
    // 7 model turns are each written twice (first without, then with their tool calls).
    expect(ids.length - new Set(ids).size).toBe(6);
    expect(responses(records)).toBe(7);
    expect(toolUses(records)).toHaveLength(6);
    const metaTypes = records.flatMap((r) => (r.kind === 'meta' ? [r.type] : []));
    expect(metaTypes.filter((t) => t === 'gemini-session')).toHaveLength(1);
    expect(metaTypes.filter((t) => t === '$set')).toHaveLength(lines.filter((l) => '$set' in l).length);
    expect(metaTypes.filter((t) => t === 'gemini-superseded')).toHaveLength(6);
    expect(prompts(records)).toEqual([
      '[[rec:files]] Look around this project: list it, read the README, find the JS files and where functions are defined.',
    ]);
    // The tool responses the client echoes back as user messages are kept, as meta (not prompts, not results).
    expect(records.filter((r) => r.kind === 'user' && r.isMeta)).toHaveLength(6);
    expect(records.every((r) => r.kind !== 'unknown')).toBe(true);
  });

  it('counts a resumed session once: second header and rebuilt history are not messages again', async () => {
    const { records } = await readGeminiPath(multiJsonl);
    expect(prompts(records)).toEqual([
      '[[rec:multi]] What is in notes.md?',
      'Add a second note to it.',
      'Thanks. What did we change overall?',
    ]);
    const withUsage = new Set(records.flatMap((r) => (r.kind === 'assistant' && r.usage ? [r.messageId] : [])));
    expect(withUsage.size).toBe(5);
    expect(records.filter((r) => r.kind === 'meta' && r.type === 'gemini-session')).toHaveLength(2);
  });

  it('chains records by parent uuid, calls stamped at their start and results at their completion', async () => {
    const { records } = await readGeminiPath(filesJsonl);
    const chain = records.filter((r): r is Extract<TranscriptRecord, { uuid: unknown }> => 'uuid' in r);
    expect(chain.map((r) => r.parentUuid)).toEqual([null, ...chain.slice(0, -1).map((r) => r.uuid)]);
    const call = records.find(
      (r): r is Extract<TranscriptRecord, { kind: 'assistant' }> =>
        r.kind === 'assistant' && r.content.some((b) => b.kind === 'tool-use'),
    );
    // read the id's epoch: list_directory__list_directory_1795393652244_0
    expect(call?.timestamp).toBe('2026-11-23T00:27:32.244Z');
    expect(call?.cwd).toBe('/home/user/proj/files');
  });

  it('reports thoughts tokens on their own and inside the output', async () => {
    const { records } = await readGeminiPath(filesJsonl);
    const first = records.find((r) => r.kind === 'assistant');
    // {"input":11814,"output":73,"cached":0,"thoughts":839}
    expect(first?.kind === 'assistant' ? first.usage : undefined).toEqual({
      inputTokens: 11814,
      outputTokens: 73 + 839,
      cacheCreationInputTokens: 0,
      cacheCreation1hInputTokens: 0,
      cacheReadInputTokens: 0,
      reasoningOutputTokens: 839,
    });
  });
});

describe('the stub 0.61 leaves when it resumes a session', () => {
  if (!existsSync(corpus061)) it.skip(`corpus skipped: ${corpus061} is not present`, () => {});
  it.each([['bundled', home061], ...(existsSync(corpus061) ? [['corpus', corpus061]] : [])])(
    '%s multi: the stub is read with a resume_stub issue naming its session; the session file has none',
    async (_, home) => {
      const { files } = await discoverGemini(join(home, 'tmp/multi'));
      const read = await Promise.all(files.map(async (f) => [basename(f.path), await readGemini(f)] as const));
      expect(read.map(([name, { issues }]) => [name, issues.map((i) => `${i.code} ${i.line} ${i.message}`)])).toEqual([
        ['session-2026-11-23T00-27-85ed09f1.jsonl', []],
        [
          'session-2026-11-23T00-28-85ed09f1.jsonl',
          [
            'resume_stub 0 a header Gemini CLI left when it resumed session 85ed09f1-51f6-47b8-99d1-7e4d7e9935b6: no message of its own; the session is listed from its other file',
          ],
        ],
      ]);
      // Nothing of it is lost: its header and `$set` line are records, as any file's.
      expect(read[1]?.[1].records.map((r) => (r.kind === 'meta' ? r.type : r.kind))).toEqual([
        'gemini-session',
        '$set',
      ]);
    },
  );

  it('a second file of a session that holds a message is no stub', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-gemini-stub-'));
    try {
      const chats = join(dir, 'tmp/multi/chats');
      await mkdir(chats, { recursive: true });
      const source = join(home061, 'tmp/multi/chats');
      await copyFile(
        join(source, 'session-2026-11-23T00-27-85ed09f1.jsonl'),
        join(chats, 'session-2026-11-23T00-27-85ed09f1.jsonl'),
      );
      const stub = readFileSync(join(source, 'session-2026-11-23T00-28-85ed09f1.jsonl'), 'utf8');
      const prompt = { id: 'p1', timestamp: '2026-11-23T00:28:04.000Z', type: 'user', content: [{ text: 'more' }] };
      await writeFile(join(chats, 'session-2026-11-23T00-28-85ed09f1.jsonl'), `${stub}${JSON.stringify(prompt)}\n`);
      const { files } = await discoverGemini(join(dir, 'tmp/multi'));
      const issues = (await Promise.all(files.map(readGemini))).flatMap((r) => r.issues);
      expect(issues).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('0.20 JSON documents', () => {
  it('reads the document whole, with a location per message', async () => {
    const { records, issues } = await readGeminiPath(filesJson);
    expect(issues).toEqual([]);
    expect(responses(records)).toBe(3);
    expect(toolUses(records)).toHaveLength(6);
    const lines = readFileSync(filesJson, 'utf8').split('\n');
    const user = records.find((r) => r.kind === 'user');
    expect(lines[(user?.loc.line ?? 0) - 1]).toContain(user?.kind === 'user' ? user.uuid : 'none');
  });

  it('keeps info messages as system records', async () => {
    const info = await readGeminiPath(join(geminiFixtures, 'wild/entire-cli-2'));
    expect(info.records.filter((r) => r.kind === 'system').map((r) => (r.kind === 'system' ? r.subtype : ''))).toEqual([
      'info',
    ]);
  });
});

describe('bad input never throws', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentdash-gemini-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const ref = (path: string) => ({ path, projectDir: dir, role: 'main' as const, sessionId: 's', agentId: undefined });

  it('turns garbage, unknown entries and deep nesting into issues and unknown records', async () => {
    const path = join(dir, 'session-x.jsonl');
    const deep = `${'['.repeat(2200)}${']'.repeat(2200)}`;
    await writeFile(
      path,
      [
        '{"sessionId":"s","kind":"main"}',
        'not json',
        '42',
        `{"id":"a","type":"user","content":${deep}}`,
        '{"id":"b","type":"surprise","content":"?"}',
        '{"id":"c","type":"gemini","content":"ok","toolCalls":[null,{"id":"t","name":"x","status":"success","result":"plain"}]}',
        '',
      ].join('\n'),
    );
    const { records, issues } = await readGemini(ref(path));
    expect(issues.map((i) => i.code).sort()).toEqual(['invalid_json', 'too_deep', 'unknown_record', 'unknown_record']);
    expect(records.filter((r) => r.kind === 'unknown').map((r) => (r.kind === 'unknown' ? r.type : ''))).toEqual([
      '(not a Gemini record)',
      'message:surprise',
    ]);
    expect(toolUses(records)).toHaveLength(2);
  });

  it('holds back a document caught mid-rewrite and refuses one over the size limit', async () => {
    const path = join(dir, 'session-x.json');
    await writeFile(path, '{"sessionId":"s","messages":[{"id":"a","type":"user","content":"hi"}');
    const partial = await readGemini(ref(path));
    expect(partial).toEqual({ records: [], issues: [] });
    await writeFile(path, '{"sessionId":"s","messages":[}');
    expect((await readGemini(ref(path))).issues.map((i) => i.code)).toEqual(['invalid_json']);
    const big = `{"sessionId":"s","messages":[{"id":"a","type":"user","content":"${'x'.repeat(2048)}"}]}`;
    await writeFile(path, big);
    const { streamGeminiRecords } = await import('./stream-records.js');
    const issues: string[] = [];
    const end = await streamGeminiRecords(ref(path), (e) => e.kind === 'issue' && issues.push(e.issue.code), {
      maxLineBytes: 1024,
    });
    expect({ issues, bytesRead: end.bytesRead }).toEqual({ issues: ['line_too_long'], bytesRead: big.length });

    // A document far over the limit is not read to its end: reading stops at the limit, its length is probed.
    const huge = `{"sessionId":"s","messages":[{"id":"a","type":"user","content":"${'x'.repeat(12 * 1024 * 1024)}"}]}`;
    await writeFile(path, huge);
    let read = 0;
    const counting: OpenBytes = async (file) => {
      const source = await openFileBytes(file);
      return {
        read: async (buffer, offset, length, position) => {
          const result = await source.read(buffer, offset, length, position);
          read += result.bytesRead;
          return result;
        },
        close: () => source.close(),
      };
    };
    const hugeEnd = await streamGeminiRecords(ref(path), () => {}, { maxLineBytes: 1024, open: counting });
    expect(hugeEnd.bytesRead).toBe(huge.length);
    expect(read).toBeLessThanOrEqual(1024 * 1024 + 100);
  });
});
