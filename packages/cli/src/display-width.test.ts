/**
 * Tables and excerpts are measured in terminal columns: a Chinese character and an emoji take two, an accent written
 * as a combining mark none. The sessions table keeps its columns aligned when a project path or a title holds them,
 * and a cut (a table's last column on a terminal, an excerpt) never splits a grapheme or a surrogate pair.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, graphemes } from './display-width.js';
import { excerpt } from './format.js';
import type { CliIo } from './io.js';
import { run } from './run.js';

const CHINESE = '修复登录页面的错误并更新所有相关的测试用例';
const EMOJI = 'ship it 🚀 👍🏽 🇫🇷 👨‍👩‍👧 today';
/** "café résumé", each é written as e + U+0301 (combining acute accent), as macOS file names are. */
const DECOMPOSED = 'cafe\u0301 re\u0301sume\u0301';

/** Half of a surrogate pair without the other (with the u flag, a whole pair is one code point and does not match). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Whether `cut` (without its …) is the first graphemes of `text`, whole. */
const cutBetweenGraphemes = (text: string, cut: string): boolean => {
  const kept = graphemes(cut.replace(/…$/, ''));
  return graphemes(text).slice(0, kept.length).join('') === kept.join('');
};

describe('displayWidth', () => {
  it('counts the columns a terminal gives each grapheme', () => {
    expect(displayWidth('plain text')).toBe(10);
    expect(displayWidth('修复登录')).toBe(8);
    expect(displayWidth('ｆｕｌｌ')).toBe(8);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('🚀')).toBe(2);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('🇫🇷')).toBe(2);
    expect(displayWidth('👨‍👩‍👧')).toBe(2);
    expect(displayWidth('❤️')).toBe(2);
    expect(displayWidth(DECOMPOSED)).toBe('café résumé'.length);
    expect(displayWidth('𠀀')).toBe(2);
    // Symbols the CLI prints itself stay one column.
    expect(displayWidth('✓ ✗ … ▶ ● ␛')).toBe(11);
  });
});

describe('cutToWidth and excerpt', () => {
  it('cut in columns, between graphemes, never inside a surrogate pair or before an accent', () => {
    for (const text of [CHINESE, EMOJI, DECOMPOSED, '𠀀𠀁𠀂𠀃', '👍🏽'.repeat(10)]) {
      for (let max = 1; max <= displayWidth(text) + 1; max++) {
        const cut = cutToWidth(text, max);
        expect(displayWidth(cut), `${text} to ${max}`).toBeLessThanOrEqual(max);
        expect(cutBetweenGraphemes(text, cut), `${text} to ${max}`).toBe(true);
        expect(LONE_SURROGATE.test(cut), `${text} to ${max}`).toBe(false);
        // Nothing is cut that fits, and a cut loses at most one column to a wide character and one to the …
        if (max >= displayWidth(text)) expect(cut).toBe(text);
        else expect(displayWidth(cut)).toBeGreaterThanOrEqual(max - 1);
      }
    }
    expect(cutToWidth(DECOMPOSED, 5)).toBe('cafe\u0301…');
  });

  it('excerpt: one line of at most that many columns', () => {
    const text = `${CHINESE}\n${EMOJI}`;
    const line = excerpt(text, 30);
    expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(line.includes('\n')).toBe(false);
    expect(cutBetweenGraphemes(CHINESE, line)).toBe(true);
    expect(excerpt(DECOMPOSED, 20)).toBe(DECOMPOSED);
  });
});

describe('the sessions table with wide characters and combining marks', () => {
  let dir: string;
  let home: string;
  const cases = [
    { project: '/home/user/项目/登录', title: CHINESE },
    { project: '/home/user/🚀launch', title: EMOJI },
    { project: `/home/user/${DECOMPOSED}`, title: DECOMPOSED },
    { project: '/home/user/plain', title: 'a plain title' },
  ];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-width-'));
    home = join(dir, 'home');
    cases.forEach(({ project, title }, i) => {
      const sessionId = nextSessionId();
      const base = basesOf(sessionId)(`d${i}000000-0000-4000-8000-000000000001`, null, i + 1);
      writeLines(join(home, 'projects', `-home-user-p${i}`, `${sessionId}.jsonl`), [
        prompt({ ...base, cwd: project }, title),
      ]);
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function sessions(tty: boolean, columns: number) {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: { write: (s: string) => (stdout += s), isTTY: tty, columns },
      stderr: { write: (s: string) => (stderr += s), isTTY: false },
      env: { CLAUDE_CONFIG_DIR: home, NO_COLOR: '1' },
      homedir: dir,
      now: Date.now,
    };
    const code = await run(['sessions', home, '--db', join(dir, 'index.sqlite')], io);
    expect(code, stderr).toBe(0);
    return stdout.trimEnd().split('\n').slice(0, -1);
  }

  /** The column (in terminal columns) where `text` starts in `line`, its last occurrence (a title may be in a path). */
  const columnOf = (line: string, text: string) => displayWidth(line.slice(0, line.lastIndexOf(text)));

  it('PROJECT and TITLE start at the same column on every row', async () => {
    const [header = '', ...rows] = await sessions(false, 120);
    expect(rows).toHaveLength(cases.length);
    for (const { project, title } of cases) {
      const row = rows.find((r) => r.includes(title)) ?? '';
      expect([columnOf(row, project), columnOf(row, title)], title).toEqual([
        columnOf(header, 'PROJECT'),
        columnOf(header, 'TITLE'),
      ]);
    }
  });

  it('on a terminal, every line fits its width and titles are cut between graphemes', async () => {
    const width = 120;
    const [header = '', ...rows] = await sessions(true, width);
    for (const line of [header, ...rows]) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    const titleAt = columnOf(header, 'TITLE');
    // The TITLE column is the room left: the longer titles are cut.
    expect(rows.filter((row) => row.endsWith('…')).length).toBeGreaterThan(0);
    for (const { title } of cases) {
      const start = title.slice(0, 4);
      const row = rows.find((r) => r.includes(start)) ?? '';
      expect(columnOf(row, start), title).toBe(titleAt);
      const cell = row.slice(row.lastIndexOf(start));
      expect(cutBetweenGraphemes(title, cell), `${title} → ${cell}`).toBe(true);
    }
  });
});

describe('long text (a pasted log of hundreds of KB)', () => {
  // Segmenting takes more than linear time in Node 20: a 200 KB prompt with one accent made `show` take 9 minutes.
  const line = '2025-01-01 12:00:00 \u241b[31mERROR\u241b[0m café service failed to connect, retrying\n';
  const log = line.repeat(5000);

  it('is cut to its first columns, reading no further', () => {
    const cut = excerpt(log, 80);
    expect(displayWidth(cut)).toBe(80);
    expect(cut).toBe('2025-01-01 12:00:00 ␛[31mERROR␛[0m café service failed to connect, retrying 202…');
    expect(cut.endsWith('…')).toBe(true);
  });

  it('is measured whole, in pieces that never part a grapheme', () => {
    expect(displayWidth(log)).toBe(log.length - 5000);
    // Shifted by one unit, so that no piece could end at a fixed length between two families.
    const families = `x${'👨‍👩‍👧'.repeat(20_000)}`;
    expect(displayWidth(families)).toBe(40_001);
    expect(graphemes(families).length).toBe(20_001);
    const decomposed = 'cafe\u0301 '.repeat(40_000);
    expect(displayWidth(decomposed)).toBe(200_000);
    const chinese = '数据库连接失败，请检查配置。'.repeat(20_000);
    expect(displayWidth(chinese)).toBe(560_000);
    expect(cutToWidth(chinese, 9)).toBe('数据库连…');
    expect(graphemes(decomposed.slice(0, 12))).toEqual(['c', 'a', 'f', 'e\u0301', ' ', 'c', 'a', 'f', 'e\u0301', ' ']);
  });
});
