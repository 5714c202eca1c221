import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endsInsideCharacter, type LineEvent, type ReadEnd, readLines } from './read-lines.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdash-live-lines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Seen = [kind: string, line: number, text: string];

/** Read `file` from where `end` left off (the start when undefined); lines and issues as [kind, line, text|code]. */
async function readOn(file: string, end?: ReadEnd): Promise<{ seen: Seen[]; end: ReadEnd }> {
  const seen: Seen[] = [];
  const next = await readLines(
    file,
    (e: LineEvent) => seen.push(e.kind === 'line' ? ['line', e.line, e.text] : ['issue', e.issue.line, e.issue.code]),
    end ? { startOffset: end.nextOffset, startLine: end.nextLine } : {},
  );
  return { seen, end: next };
}

/** Write `parts` one by one, reading on after each; all that was seen, and what one read of the result sees. */
async function liveAndBatch(parts: readonly (string | Buffer)[]): Promise<{ live: Seen[]; batch: Seen[] }> {
  const file = join(dir, 'live.jsonl');
  await writeFile(file, '');
  const live: Seen[] = [];
  let end: ReadEnd | undefined;
  for (const part of parts) {
    await appendFile(file, part);
    const step = await readOn(file, end);
    live.push(...step.seen);
    end = step.end;
  }
  return { live, batch: (await readOn(file)).seen };
}

describe('readLines: a live read equals a batch read of the finished file', () => {
  it('a complete JSON last line without its newline does not shift later line numbers', async () => {
    for (const eol of ['\n', '\r\n']) {
      const { live, batch } = await liveAndBatch(['{"n":1}', eol, '{"n":2}', `${eol}{"n":3}${eol}`]);
      expect(live).toEqual([
        ['line', 1, '{"n":1}'],
        ['line', 2, '{"n":2}'],
        ['line', 3, '{"n":3}'],
      ]);
      expect(live).toEqual(batch);
    }
  });

  it('a line cut inside a multi-byte character is held back, not reported as invalid UTF-8', async () => {
    const text = Buffer.from('{"t":"héllo ✓ 🙂"}\n', 'utf8');
    const cuts = [8, 15, 18, 20];
    const parts = cuts.map((cut, i) => text.subarray(i === 0 ? 0 : (cuts[i - 1] ?? 0), cut));
    parts.push(text.subarray(cuts.at(-1)));
    expect([...cuts, text.length].map((cut) => endsInsideCharacter(text.subarray(0, cut)))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    const { live, batch } = await liveAndBatch(parts);
    expect(live).toEqual([['line', 1, '{"t":"héllo ✓ 🙂"}']]);
    expect(live).toEqual(batch);
  });

  it('real invalid UTF-8 is still reported once, when the line is taken', async () => {
    const { live, batch } = await liveAndBatch([Buffer.from([0x7b, 0x22, 0xff, 0x22]), Buffer.from(':1}\n')]);
    expect(live).toEqual([
      ['issue', 1, 'invalid_utf8'],
      ['line', 1, '{"\uFFFD":1}'],
    ]);
    expect(live).toEqual(batch);
  });

  it('a file of NUL bytes without a newline is returned (and so reported), not held back unseen', async () => {
    const { live, batch } = await liveAndBatch([Buffer.alloc(4096), '\n{"n":2}\n']);
    expect(live.map(([kind, line]) => [kind, line])).toEqual([
      ['line', 1],
      ['line', 2],
    ]);
    expect(live).toEqual(batch);
  });

  it('a line that goes on after it was read as complete JSON is reported at its line, and numbering holds', async () => {
    const { live } = await liveAndBatch(['{"n":1}', ' trailing\n{"n":2}\n']);
    expect(live).toEqual([
      ['line', 1, '{"n":1}'],
      ['issue', 1, 'invalid_json'],
      ['line', 2, '{"n":2}'],
    ]);
  });
});
