/**
 * Lines fitted to the terminal lose nothing: a word wider than a line was cut to one line with …, and a reply in
 * Chinese or Japanese (a sentence is one "word": no spaces) lost most of its text in `show` on a terminal (a review:
 * at 80 columns `并发时请求排队超时。我把` was gone; only piped output was whole).
 */
import { describe, expect, it } from 'vitest';
import { displayWidth } from './display-width.js';
import { wrapLines, wrapToWidth } from './wrap.js';

const PREFIX = '20:21:06 ● ';
const prefixOf = () => PREFIX;
// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes of the CLI's own
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
/** The text of wrapped lines, joined again: each line's indent and the prefix out. */
const joined = (lines: string[]) => lines.map((l, i) => (i === 0 ? l.slice(PREFIX.length) : l.trimStart())).join('');

describe('a word wider than the terminal', () => {
  it('is broken across lines between its characters, every line within the width', () => {
    const reply =
      '我已经检查了配置文件。问题在于连接池的最大连接数设置得太小，导致高并发时请求排队超时。我把 max_connections 从十改成了五十，并重新启动了服务。';
    for (const width of [30, 50, 80]) {
      const lines = wrapLines(`${PREFIX}${reply}`, width, prefixOf).split('\n');
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      expect(joined(lines).replaceAll(' ', '')).toBe(reply.replaceAll(' ', ''));
      expect(lines.join('')).not.toContain('…');
    }
  });

  it('keeps an emoji and a letter with its accent whole, and a long path whole across lines', () => {
    const text = `${'😀'.repeat(30)} ${'e\u0301'.repeat(30)} /home/user/${'deep/'.repeat(20)}file.ts`;
    const lines = wrapLines(`${PREFIX}${text}`, 24, prefixOf).split('\n');
    for (const line of lines) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(24);
      expect(line).not.toMatch(/^\s*\u0301|[\ud800-\udbff]$/);
    }
    expect(joined(lines).replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
  });

  it('with colour codes in it, breaks it by the columns of its text', () => {
    const bold = `\u001b[1m${'漢字'.repeat(40)}\u001b[22m`;
    const lines = wrapLines(`${PREFIX}${bold}`, 40, prefixOf).split('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(displayWidth(plain(line)), line).toBeLessThanOrEqual(40);
    expect(plain(joined(lines))).toBe('漢字'.repeat(40));
  });

  it('in help text, is broken too, under its indent', () => {
    const help = `  --x   ${'a'.repeat(70)} end`;
    const lines = wrapToWidth(help, 40).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(
      lines
        .map((l) => l.trim())
        .join(' ')
        .replace(/a\s+a/g, 'aa'),
    ).toContain(`${'a'.repeat(70)} end`);
  });
});
