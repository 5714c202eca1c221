import { describe, expect, it } from 'vitest';
import { unknownModelOf } from '../model/unknown-model.js';
import {
  characterCut,
  modelLabel,
  oneLine,
  shortId,
  shortModel,
  shortModels,
  shortRefs,
  uniquePrefixes,
} from './text.js';

describe('shortModels', () => {
  it('drops claude- and the date, unless two models would then read alike', () => {
    const names = shortModels([
      'claude-sonnet-4',
      'claude-sonnet-4-20250514',
      'claude-opus-4-5-20251101',
      'gpt-5-codex',
    ]);
    expect([...names.values()]).toEqual(['sonnet-4', 'sonnet-4-20250514', 'opus-4-5', 'gpt-5-codex']);
    expect(new Set(names.values()).size).toBe(names.size);
  });
});

describe('uniquePrefixes', () => {
  it('gives each id the shortest prefix of at least 8 characters no other id starts with', () => {
    const ids = [
      '01a205e9-7215-7200-aa11-0839c0abf80f',
      '01a205e9-7215-7a00-bb22-1111c0abf80f',
      '01a205ea-0001-7000-8000-000000000000',
      'cd11f12b-b0ad-4540-90e3-b4254028db1f',
    ];
    const prefixes = uniquePrefixes(ids);
    expect([...prefixes.values()]).toEqual(['01a205e9-7215-72', '01a205e9-7215-7a', '01a205ea', 'cd11f12b']);
    for (const [id, prefix] of prefixes) {
      expect(id.startsWith(prefix)).toBe(true);
      expect(ids.filter((other) => other.startsWith(prefix))).toEqual([id]);
    }
  });
});

describe('shortId', () => {
  it("keeps a UUID's first 8 characters, another id whole or cut with an ellipsis, never mid-word at 8", () => {
    expect(shortId('cd11f12b-b0ad-4540-90e3-b4254028db1f')).toBe('cd11f12b');
    expect(shortId('01a205e9-7215-7200-aa11-0839c0abf80f', 16)).toBe('01a205e9-7215-72');
    expect(shortId('truth@0.61.0')).toBe('truth@0.61.0');
    expect(shortId('a-session-named-after-a-very-long-file')).toBe('a-session-named-after-a-…');
    expect(shortId('short')).toBe('short');
  });
});

describe('shortRefs', () => {
  // Codex's ids are time-ordered (UUIDv7): sessions begun within a minute share their first 8 characters and more.
  const refs = [
    '01a205f2-7215-7200-aa11-0839c0abf80f',
    '01a205f2-7215-7a00-bb22-1111c0abf80f',
    '01a205f2-9c40-7000-8000-000000000000',
    '01a205f3-0001-7000-8000-000000000000',
    // One id in two project folders whose names start alike, and a key (the same folder name in two homes).
    'cd11f12b-b0ad-4540-90e3-b4254028db1f@-home-ann-work-api-server',
    'cd11f12b-b0ad-4540-90e3-b4254028db1f@-home-ann-work-app-client',
    '/home/ann/.claude/projects/-home-ann-api/0c97beba-0000-4000-8000-0000000000c0',
    'truth@0.61.0',
    'truth@0.20.2',
    'rollout-2026-11-30T10-00-00-aaaa',
    'rollout-2026-11-30T10-00-00-bbbb',
  ];

  it('gives each id the shortest prefix of at least 8 characters or the id whole, a folder whole, a key whole', () => {
    expect([...shortRefs(refs).values()]).toEqual([
      '01a205f2-7215-72',
      '01a205f2-7215-7a',
      '01a205f2-9',
      '01a205f3',
      'cd11f12b@-home-ann-work-api-server',
      'cd11f12b@-home-ann-work-app-client',
      '/home/ann/.claude/projects/-home-ann-api/0c97beba-0000-4000-8000-0000000000c0',
      'truth@0.61.0',
      'truth@0.20.2',
      'rollout-2026-11-30T10-00-00-a…',
      'rollout-2026-11-30T10-00-00-b…',
    ]);
  });

  it('shows a prefix of each id that only its own starts with, and all that follows it', () => {
    const plain = refs.filter((ref) => !ref.includes('/'));
    const uuidAt = /^([0-9a-f]{8}-[0-9a-f-]{27})@(.*)$/;
    const idOf = (ref: string) => uuidAt.exec(ref)?.[1] ?? ref;
    for (const [ref, short] of shortRefs(plain)) {
      const typed = short.replace('…', '');
      const [prefix, folder] = uuidAt.test(ref) ? typed.split('@') : ref.includes('@') ? [ref, undefined] : [typed];
      expect(idOf(ref).startsWith(prefix ?? '?'), ref).toBe(true);
      if (uuidAt.test(ref)) expect(ref.endsWith(`@${folder}`), ref).toBe(true);
      expect(new Set(plain.map(idOf).filter((id) => id.startsWith(prefix ?? '?')))).toEqual(new Set([idOf(ref)]));
    }
  });

  it('keeps an id that holds an @ whole, and cuts only a UUID at its @', () => {
    const odd = ['some-long-name-with-version@1.2.3-beta-long', 'cd11f12b-b0ad-4540-90e3-b4254028db1f@-home-ann-x'];
    expect([...shortRefs(odd).values()]).toEqual([odd[0], 'cd11f12b@-home-ann-x']);
  });

  it('names a key by a folder only its path has, else the shortest trailing part only it ends with, else whole', () => {
    const keys = [
      '/home/ann/gemini/entire-cli-3/tmp/7e8989f7/f7633853-6663-4dbb-bbf4-6159afa29df8',
      '/home/ann/gemini/entire-cli-2/tmp/7e8989f7/f7633853-6663-4dbb-bbf4-6159afa29df8',
      // a home inside another's path
      '/home/ann/.claude/projects/-home-ann-api/0c97beba-0000-4000-8000-0000000000c0',
      '/home/ann/backup/.claude/projects/-home-ann-api/0c97beba-0000-4000-8000-0000000000c0',
      // a key listed without the other of its id
      '/home/bob/.claude/projects/-home-bob/a1b2c3d4-0000-4000-8000-0000000000c0',
    ];
    expect([...shortRefs(keys).values()]).toEqual([
      'entire-cli-3/…/f7633853',
      'entire-cli-2/…/f7633853',
      'ann/.claude/projects/-home-ann-api/0c97beba',
      'backup/…/0c97beba',
      keys[4],
    ]);
    // never a drive letter as the folder: Windows keys on C: and D: are told by the folder after it
    const windows = shortRefs([
      'C:\\Users\\ann\\.claude\\projects\\-p\\f7633853-6663-4dbb-bbf4-6159afa29df8',
      'D:\\Users\\ann\\.claude\\projects\\-p\\f7633853-6663-4dbb-bbf4-6159afa29df8',
    ]);
    expect([...windows.values()]).toEqual([
      'C:/Users/ann/.claude/projects/-p/f7633853',
      'D:/Users/ann/.claude/projects/-p/f7633853',
    ]);
    // beside an `<id>@<folder>` of the id (whose path may hold `entire-cli-3`), the trailing part of the path
    const beside = shortRefs([...keys.slice(0, 2), 'f7633853-6663-4dbb-bbf4-6159afa29df8@7e8989f7']);
    expect([...beside.values()].slice(0, 2)).toEqual([
      'entire-cli-3/tmp/7e8989f7/f7633853',
      'entire-cli-2/tmp/7e8989f7/f7633853',
    ]);
  });

  it('tells apart thousands of ids begun in the same minute', () => {
    const many = Array.from(
      { length: 5000 },
      (_, i) => `01a205f2-${(0x7000 + i).toString(16)}-7000-8000-${i.toString(16).padStart(12, '0')}`,
    );
    expect(new Set(shortRefs(many).values()).size).toBe(many.length);
  });
});

describe('modelLabel', () => {
  it("says so of an agent's placeholder for a model its files never name, and leaves every other id", () => {
    expect(modelLabel(unknownModelOf('codex'))).toBe('unknown Codex model');
    expect(modelLabel(unknownModelOf('copilot'))).toBe('unknown Copilot CLI model');
    expect(shortModel(unknownModelOf('qwen'))).toBe('unknown Qwen Code model');
    // no agent of that name: a model's own id
    expect(modelLabel('acme-unknown-model')).toBe('acme-unknown-model');
    expect(modelLabel('claude-sonnet-4-6')).toBe('claude-sonnet-4-6');
  });
});

describe('oneLine', () => {
  it('cuts a long line to its width, never inside a character', () => {
    // 78 letters, then an emoji (two UTF-16 units) across the cut at 79: half of it was kept, stored as U+FFFD
    const cut = oneLine(`${'a'.repeat(78)}👍🏽 and more`);
    expect(cut).toBe(`${'a'.repeat(78)}…`);
    expect(cut).not.toMatch(/[\uD800-\uDFFF]/);
    // a letter and its combining mark, a family joined by ZWJ, a flag: each whole or not at all
    for (const char of ['e\u0301', '👨‍👩‍👧', '🇫🇷']) {
      const text = `${'x'.repeat(77)}${char}${'y'.repeat(10)}`;
      const kept = oneLine(text).slice(0, -1);
      expect(kept === 'x'.repeat(77) || kept === `${'x'.repeat(77)}${char}`).toBe(true);
    }
    expect(oneLine('  a\n\tb  ')).toBe('a b');
  });

  it('characterCut moves a cut back to the start of the character it would part', () => {
    expect(characterCut('ab👍', 3)).toBe(2);
    expect(characterCut('ab👍', 4)).toBe(4);
    expect(characterCut('abc', 10)).toBe(3);
  });
});
