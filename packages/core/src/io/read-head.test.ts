import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findInHead } from './read-head.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-read-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = /"sessionId":"([^"\n]+)"/;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('findInHead', () => {
  it('finds the first match, in the first record or after long records without one', () => {
    const first = file('first.jsonl', '{"type":"user","sessionId":"s-1"}\n{"sessionId":"s-2"}\n');
    expect(findInHead(first, 256 * 1024, SESSION)?.[1]).toBe('s-1');
    // Far past the first chunk (16 KiB), and with a multi-byte text before it.
    const late = file(
      'late.jsonl',
      `${JSON.stringify({ type: 'summary', text: 'é'.repeat(40_000) })}\n{"sessionId":"s-late"}\n`,
    );
    expect(findInHead(late, 256 * 1024, SESSION)?.[1]).toBe('s-late');
    // a global or sticky pattern is searched the same way (and left as it was)
    const sticky = new RegExp(SESSION.source, 'y');
    expect(findInHead(late, 256 * 1024, sticky)?.[1]).toBe('s-late');
    expect(sticky.lastIndex).toBe(0);
  });

  it('finds a match cut by a chunk boundary whole', () => {
    for (const shift of [16 * 1024 - 5, 16 * 1024 - 14, 16 * 1024 - 20]) {
      const path = file(`cut-${shift}.jsonl`, `${'x'.repeat(shift)}"sessionId":"boundary-id"}\n`);
      expect(findInHead(path, 256 * 1024, SESSION)?.[1]).toBe('boundary-id');
    }
  });

  it('finds an id whose character a chunk boundary splits, and a match on a line that began in an earlier chunk', () => {
    // 'é' is two bytes: its first is the chunk's last
    const split = file('split.jsonl', `${'x'.repeat(16 * 1024 - 14)}"sessionId":"é-id"}\n`);
    expect(findInHead(split, 256 * 1024, SESSION)?.[1]).toBe('é-id');
    const lines = file(
      'lines.jsonl',
      `{"type":"a"}\n${'z'.repeat(16 * 1024 - 30)}\n{"a":1,"b":2,"sessionId":"${'q'.repeat(20_000)}"}\n`,
    );
    expect(findInHead(lines, 256 * 1024, SESSION)?.[1]).toBe('q'.repeat(20_000));
  });

  it('reads no further than the limit, and gives nothing for a missing file or one without a match', () => {
    const far = file('far.jsonl', `${'y'.repeat(300 * 1024)}"sessionId":"too-far"}\n`);
    expect(findInHead(far, 256 * 1024, SESSION)).toBeUndefined();
    expect(findInHead(far, 400 * 1024, SESSION)?.[1]).toBe('too-far');
    expect(findInHead(join(dir, 'missing.jsonl'), 1024, SESSION)).toBeUndefined();
    expect(findInHead(file('none.jsonl', '{"type":"user"}\n'), 1024, SESSION)).toBeUndefined();
    expect(findInHead(file('empty.jsonl', ''), 1024, SESSION)).toBeUndefined();
  });
});
