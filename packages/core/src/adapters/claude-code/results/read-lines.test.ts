/**
 * Read results in file lines: Claude Code counts the empty text after a file's final newline as a line (its counts are
 * `text.split('\n')`'s), which showed a phantom line in "of N lines".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/helpers.js';
import { typeOf } from '../../../../test/type-claude-result.js';
import { lineCount } from '../../../model/line-count.js';

/** A transcript line's Read result of a text file (`toolUseResult.file` with its text and counts), if it is one. */
function readFileOf(
  line: string,
): { filePath: string; content: string; startLine: number; numLines: number; totalLines: number } | undefined {
  if (!line.includes('"totalLines"')) return undefined;
  const file = (JSON.parse(line) as { toolUseResult?: { file?: Record<string, unknown> } }).toolUseResult?.file;
  if (file === undefined || typeof file.content !== 'string' || typeof file.totalLines !== 'number') return undefined;
  return file as { filePath: string; content: string; startLine: number; numLines: number; totalLines: number };
}

/** The counts a Read result is typed with, from its `toolUseResult.file`. */
function counts(file: { content: string; startLine: number; numLines: number; totalLines: number }) {
  const out = typeOf('Read', '', { input: { file_path: '/p/f' }, toolUseResult: { type: 'text', file } });
  const data = out.typed?.kind === 'read' ? (out.typed.data as { numLines?: number; totalLines?: number }) : {};
  return [data.numLines, data.totalLines];
}

describe('Claude Code Read counts, in file lines', () => {
  // The Read results of ../shared/corpus (every version): notes.txt holds 30 lines and a final newline.
  const notes = `${Array.from({ length: 30 }, (_, i) => `note ${i + 1}`).join('\n')}\n`;

  it('a whole file ending in a newline: its lines, not one more', () => {
    expect(counts({ content: notes, startLine: 1, numLines: 31, totalLines: 31 })).toEqual([30, 30]);
    expect(counts({ content: 'let x = 1;\n', startLine: 1, numLines: 2, totalLines: 2 })).toEqual([1, 1]);
  });

  it('a part of it, and an offset past its end: no total, the file end was not seen', () => {
    const part = ['note 10', 'note 11', 'note 12', 'note 13', 'note 14'].join('\n');
    // Was "lines 10–14 of 31", then "of 30": right for notes.txt, one short for a file without a final newline.
    expect(counts({ content: part, startLine: 10, numLines: 5, totalLines: 31 })).toEqual([5, undefined]);
    expect(counts({ content: '', startLine: 500, numLines: 0, totalLines: 31 })).toEqual([0, undefined]);
    // big.txt: the last 12 "lines" from 11,990 are its last 11.
    const tail = `${Array.from({ length: 11 }, (_, i) => `row ${11_990 + i}`).join('\n')}\n`;
    expect(counts({ content: tail, startLine: 11_990, numLines: 12, totalLines: 12_001 })).toEqual([11, 12_000]);
  });

  it('an empty file has no line; a file without a final newline keeps its count', () => {
    expect(counts({ content: '', startLine: 1, numLines: 1, totalLines: 1 })).toEqual([0, 0]);
    expect(counts({ content: 'a\nb', startLine: 1, numLines: 2, totalLines: 2 })).toEqual([2, 2]);
  });

  it('an empty line read before the end is a line', () => {
    expect(counts({ content: 'a\nb\n', startLine: 1, numLines: 3, totalLines: 10 })).toEqual([3, undefined]);
  });

  const corpus = resolve(repoRoot, '../shared/corpus');
  const title = existsSync(corpus)
    ? 'corpus: every Read total is the lines the file held when last read whole'
    : 'corpus: every Read total is the lines the file held when last read whole (skipped: ../shared/corpus is not present)';
  it.skipIf(!existsSync(corpus))(title, () => {
    const checked: string[] = [];
    const wrong: string[] = [];
    let totals = 0;
    for (const version of readdirSync(corpus).filter((v) => /^\d/.test(v))) {
      const projects = join(corpus, version, 'claude-home/projects');
      for (const path of readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((p) =>
        p.endsWith('.jsonl'),
      )) {
        // The lines of each file as its last whole read showed them (split by newline, the final one ending a line).
        const held = new Map<string, number>();
        for (const line of readFileSync(join(projects, path), 'utf8').split('\n')) {
          const f = readFileOf(line);
          if (f === undefined) continue;
          const [numLines, totalLines] = counts(f);
          if (f.startLine === 1 && f.numLines === f.totalLines) held.set(f.filePath, lineCount(f.content));
          const want = held.get(f.filePath);
          if (want === undefined) continue;
          checked.push(f.filePath);
          if (totalLines !== undefined) totals++;
          if ((totalLines !== undefined && totalLines !== want) || (numLines ?? 0) > want)
            wrong.push(`${version} ${f.filePath} ${f.startLine}+${f.numLines}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked.length).toBeGreaterThan(300);
    expect(totals).toBeGreaterThan(290);
  });

  // ../shared/wild: Claude Code's total of a read is the file's lines, or one more when the file ends in a newline,
  // and a read that stopped before the end does not show which. cctrace's export_claude_session.py (2.0.76) was read
  // in part "of 634" while an Edit's originalFile between those reads held 634 lines and no final newline; the 1.0.98
  // demo's useTodos.test.ts, which the session's Write made with 192 newlines and no final one (193 lines), was read
  // in part "of 193". Both were shown one line short (633, 192).
  const wild = resolve(repoRoot, '../shared/wild/claude-home/projects');
  it.skipIf(!existsSync(wild))('wild: a read that did not see the file end gives no total, never a guessed one', () => {
    const held = [
      ['cctrace-1', 'export_claude_session.py', 634],
      ['claude-code-viewer-1', 'useTodos.test.ts', 193],
    ] as const;
    let reads = 0;
    const short: string[] = [];
    const guessed: string[] = [];
    /** The part reads of each held file seen (the files the session shows to have no final newline). */
    const found = new Map<string, number>();
    for (const path of readdirSync(wild, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(wild, path), 'utf8').split('\n')) {
        const f = readFileOf(line);
        if (f === undefined) continue;
        reads++;
        const [, totalLines] = counts(f);
        const whole = f.startLine + f.numLines - 1 >= f.totalLines && f.numLines === f.content.split('\n').length;
        if (!whole && totalLines !== undefined) guessed.push(`${path} ${f.filePath} ${f.startLine}+${f.numLines}`);
        for (const [project, name, lines] of held) {
          if (!path.startsWith(project) || !f.filePath.endsWith(`/${name}`) || f.totalLines !== lines || whole)
            continue;
          found.set(name, (found.get(name) ?? 0) + 1);
          if (totalLines !== undefined && totalLines !== lines) short.push(`${name} ${totalLines} of ${lines}`);
        }
      }
    }
    expect(held.map(([, name]) => (found.get(name) ?? 0) > 0)).toEqual([true, true]);
    expect(short).toEqual([]);
    expect(guessed).toEqual([]);
    expect(reads).toBeGreaterThan(450);
  });
});
