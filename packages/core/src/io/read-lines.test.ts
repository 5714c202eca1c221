import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LineEvent, readLines } from './read-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdash-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(file: string, options = {}) {
  const events: LineEvent[] = [];
  const end = await readLines(file, (e) => events.push(e), options);
  const lines = events.flatMap((e) => (e.kind === 'line' ? [{ text: e.text, line: e.line, offset: e.offset }] : []));
  const issues = events.flatMap((e) => (e.kind === 'issue' ? [e.issue] : []));
  return { lines, issues, end };
}

describe('readLines', () => {
  it('tolerates a BOM, CRLF and blank lines, keeping line numbers and byte offsets', async () => {
    const file = join(dir, 'a.jsonl');
    await writeFile(
      file,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r\n\r\n  \n{"b":2}\n')]),
    );
    const { lines, issues, end } = await collect(file);
    expect(lines).toEqual([
      { text: '{"a":1}', line: 1, offset: 0 },
      { text: '{"b":2}', line: 4, offset: 17 },
    ]);
    expect(issues).toEqual([]);
    expect(end).toEqual({ nextOffset: 25, nextLine: 5, pendingBytes: 0, bytesRead: 25 });
  });

  it('reports invalid UTF-8 with file and line, and still returns the line', async () => {
    const file = join(dir, 'b.jsonl');
    await writeFile(
      file,
      Buffer.concat([Buffer.from('{"ok":1}\n{"s":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]),
    );
    const { lines, issues } = await collect(file);
    expect(lines.map((l) => l.text)).toEqual(['{"ok":1}', '{"s":"\uFFFD\uFFFD"}']);
    expect(issues).toEqual([
      {
        code: 'invalid_utf8',
        file,
        line: 2,
        message: 'line contains invalid UTF-8; bad bytes were replaced with U+FFFD',
      },
    ]);
  });

  it('holds back an incomplete last line and picks it up once the writer finishes it', async () => {
    const file = join(dir, 'c.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2,"te');
    const first = await collect(file);
    expect(first.lines.map((l) => l.text)).toEqual(['{"n":1}']);
    expect(first.issues).toEqual([]);
    expect(first.end).toEqual({ nextOffset: 8, nextLine: 2, pendingBytes: 10, bytesRead: 18, stillWriting: true });

    await appendFile(file, 'xt":"done"}\n{"n":3}\n');
    const second = await collect(file, { startOffset: first.end.nextOffset, startLine: first.end.nextLine });
    expect(second.lines).toEqual([
      { text: '{"n":2,"text":"done"}', line: 2, offset: 8 },
      { text: '{"n":3}', line: 3, offset: 30 },
    ]);
    expect(second.end.nextOffset).toBe(38);
    expect(second.end.bytesRead).toBe(30);
  });

  it('accepts an unterminated last line that is complete JSON', async () => {
    const file = join(dir, 'd.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2}');
    const { lines, end } = await collect(file);
    expect(lines.map((l) => l.text)).toEqual(['{"n":1}', '{"n":2}']);
    expect(end).toEqual({ nextOffset: 15, nextLine: 3, pendingBytes: 0, bytesRead: 15 });
  });

  it('splits lines correctly across read chunks of any size', async () => {
    const file = join(dir, 'e.jsonl');
    const records = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i * 7) }));
    await writeFile(file, `${records.join('\n')}\n`);
    for (const chunkBytes of [1, 3, 16, 4096]) {
      const { lines } = await collect(file, { chunkBytes });
      expect(lines.map((l) => l.text)).toEqual(records);
    }
  });

  it('skips a line longer than the limit with an issue and goes on', async () => {
    const file = join(dir, 'f.jsonl');
    await writeFile(file, `{"a":1}\n{"big":"${'y'.repeat(500)}"}\n{"c":3}\n`);
    const { lines, issues } = await collect(file, { maxLineBytes: 100, chunkBytes: 64 });
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '{"c":3}']);
    expect(issues.map((i) => [i.code, i.line])).toEqual([['line_too_long', 2]]);
  });

  it('reads many files at once and one after another alike (the read buffer is reused, never shared)', async () => {
    // Lines longer than a read, so every file's lines span reads of the default size.
    const files = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const file = join(dir, `many-${i}.jsonl`);
        const texts = [0, 1, 2].map((n) =>
          JSON.stringify({ i, n, pad: String.fromCharCode(97 + i + n).repeat(700_000) }),
        );
        await writeFile(file, `${texts.join('\n')}\n`);
        return { file, texts };
      }),
    );
    const read = async ({ file }: { file: string }) => (await collect(file)).lines.map((l) => l.text);
    const atOnce = await Promise.all(files.map(read));
    const inTurn: string[][] = [];
    for (const f of files) inTurn.push(await read(f));
    expect(atOnce).toEqual(files.map((f) => f.texts));
    expect(inTurn).toEqual(files.map((f) => f.texts));
  });
});
