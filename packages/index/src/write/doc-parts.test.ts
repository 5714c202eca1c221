import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';
import { type DocPart, indexedText } from './doc-parts.js';

const output = (text: string): DocPart => ({ kind: 'tool-output', text, callId: 'toolu_1' });

describe('indexedText', () => {
  it("leaves out a file listing's line numbers in both formats, but the first of each run", () => {
    expect(indexedText(output('     1→import x\n     2→\n     3→const y = 404;\n'))).toBe(
      '     1→import x\n\nconst y = 404;\n',
    );
    // 2.1.90+: `N<tab>`, unpadded, in a file tool's output; `cat -n` and `nl` pad theirs, in any output
    expect(indexedText({ ...output('41\tfoo\n42\tbar\n43\tbaz'), listing: true })).toBe('41\tfoo\nbar\nbaz');
    expect(indexedText(output('     1\tfoo\n     2\tbar'))).toBe('     1\tfoo\nbar');
    expect(indexedText(output('     1→a\r\n     2→b\r\n'))).toBe('     1→a\r\nb\r\n');
    // Edit's reply: a sentence, then a numbered snippet of the edited file
    expect(
      indexedText(output("The file a.ts has been updated. Here's the result:\n    10→a\n    11→b\n    12→c")),
    ).toBe("The file a.ts has been updated. Here's the result:\n    10→a\nb\nc");
  });

  it('keeps numbers that only start lines (no run) and every other kind of text', () => {
    const counts = '3\tapples\n7\tpears\n12\tplums';
    expect(indexedText(output(counts))).toBe(counts);
    // tab-separated data whose first column happens to count up (ids from a database) is not a listing
    const rows = '1001\ta@x.org\n1002\tb@x.org\n1003\tc@x.org';
    expect(indexedText(output(rows))).toBe(rows);
    expect(indexedText(output('404 Not Found\n405 Method'))).toBe('404 Not Found\n405 Method');
    const numbered = '     1→a\n     2→b';
    for (const kind of ['prompt', 'assistant', 'thinking', 'tool-input'] as const) {
      expect(indexedText({ kind, text: numbered })).toBe(numbered);
    }
  });
});

/** What `indexedText` drops, as a multiline pattern says it (the scan by hand replaced this). */
function byPattern(text: string, listing: boolean): string {
  let previous = -2;
  return text.replace(/^([ \t]*)(\d{1,9})(→|\t)/gm, (prefix: string, padding: string, digits: string, mark: string) => {
    const n = Number(digits);
    const follows = n === previous + 1;
    previous = n;
    return follows && (mark === '→' || listing || padding !== '') ? '' : prefix;
  });
}

describe('indexedText, scanned by hand', () => {
  it('drops exactly the numbers the pattern drops, over 20,000 made-up outputs', () => {
    let seed = 42;
    // mulberry32: a fixed sequence, so a failure can be run again.
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
    let dropped = 0;
    for (let i = 0; i < 20_000; i++) {
      const lines: string[] = [];
      let n = random(3) === 0 ? random(2_000_000_000) : random(20);
      for (let l = random(12); l >= 0; l--) {
        n = random(4) === 0 ? random(100) : n + 1;
        const digits = random(10) === 0 ? `${n}${random(10_000_000_000)}` : random(8) === 0 ? `0${n}` : `${n}`;
        const mark = pick(['→', '→', '→', '\t', '\t', ' ', '', ':', '→→']);
        const body = pick(['', 'x', 'const y = 404;', '12\t13', ' 7→ nested', '\t', 'é → ü']);
        lines.push(random(6) === 0 ? body : `${pick(['', ' ', '     ', '\t', ' \t '])}${digits}${mark}${body}`);
      }
      // Every line terminator a multiline pattern knows: `\n`, `\r\n`, a lone `\r`, U+2028, U+2029.
      const text = lines.reduce(
        (all, line) => `${all}${pick(['\n', '\n', '\n', '\r\n', '\r', '\u2028', '\u2029'])}${line}`,
      );
      const listing = random(2) === 0;
      const part: DocPart = { ...output(text), ...(listing ? { listing } : {}) };
      const byHand = indexedText(part);
      expect(byHand, JSON.stringify(part)).toBe(byPattern(text, listing));
      if (byHand !== text) dropped += 1;
    }
    // The made-up outputs do exercise dropping (and keeping).
    expect(dropped).toBeGreaterThan(2_000);
    expect(dropped).toBeLessThan(18_000);
  });
});

describe('search over file listings', () => {
  let dir: string;
  let index: AgentIndex;
  const sessionId = nextSessionId();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-doc-parts-'));
    const b = basesOf(sessionId);
    const listing = Array.from(
      { length: 60 },
      (_, i) => `${String(i + 1).padStart(6)}→line ${i === 29 ? 'zebra' : 'x'}`,
    );
    // 2.1.90+: `N<tab>line`, lines 400-410 of a file, as Read gives it (its toolUseResult names the file)
    const lines = Array.from({ length: 11 }, (_, i) => (i === 9 ? '  return res.status(404);' : `  step${i}();`));
    const server = lines.map((line, i) => `${400 + i}\t${line}`).join('\n');
    const file = {
      filePath: '/home/user/proj/demo/server.ts',
      content: lines.join('\n'),
      numLines: 11,
      startLine: 400,
    };
    writeLines(join(dir, 'home', 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), [
      prompt(b('u1', null, 0), 'Read the config please'),
      toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_read1', 'Read', { file_path: '/home/user/proj/demo/config.ts' }),
      toolResult(b('r1', 'a1', 2), 'toolu_read1', listing.join('\n'), false),
      toolUse(b('a2', 'r1', 3), 'msg_2', 'toolu_read2', 'Read', { file_path: file.filePath, offset: 400 }),
      toolResult(b('r2', 'a2', 4), 'toolu_read2', server, false, { type: 'text', file: { ...file, totalLines: 500 } }),
      toolUse(b('a3', 'r2', 5), 'msg_3', 'toolu_bash1', 'Bash', { command: "sqlite3 -tabs app.db 'select id, email'" }),
      toolResult(b('r3', 'a3', 6), 'toolu_bash1', '1001\ta@x.org\n1002\tb@x.org\n1003\tc@x.org', false, {
        stdout: '1001\ta@x.org\n1002\tb@x.org\n1003\tc@x.org',
        stderr: '',
        interrupted: false,
      }),
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(dir, 'home')]);
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the words of a listing, not its line numbers, and cuts the snippet from what was indexed', async () => {
    const hits = await index.search('zebra');
    expect(hits.map((h) => [h.sessionId, h.kind, h.tool])).toEqual([[sessionId, 'tool-output', 'Read']]);
    expect(hits[0]?.snippet).toContain('line \u0001zebra\u0002');
    expect(hits[0]?.snippet).not.toContain('30→');
    expect(await index.search('30')).toEqual([]);
    expect(await index.search('59')).toEqual([]);
    expect(await index.search('405')).toEqual([]);
    // the first line's number stays: a listing from line 1 is still found by it
    expect((await index.search('1')).map((h) => h.kind)).toEqual(['tool-output']);
    // the status code is found, and it is what the snippet marks (not line 404 of the file)
    const status = await index.search('404');
    expect(status.map((h) => h.callId)).toEqual(['toolu_read2']);
    expect(status[0]?.snippet).toContain('status(\u0001404\u0002)');
  });

  it('keeps tab-separated data searchable whose first column counts up', async () => {
    expect((await index.search('1002')).map((h) => [h.callId, h.tool])).toEqual([['toolu_bash1', 'Bash']]);
  });
});
