import { afterEach, describe, expect, it } from 'vitest';
import { replaceHash, shortRef, shortRefs } from './router';

/** A window with only what `replaceHash` touches: the address's hash and `history.replaceState`. */
function fakeWindow(hash: string) {
  const location = { hash };
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => {
      location.hash = url;
    },
  };
  (globalThis as { window?: unknown }).window = { location, history };
  return location;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("a page's state in the address", () => {
  it('replaces the address of the same page', () => {
    const location = fakeWindow('#/?q=a');
    replaceHash('#/?q=b');
    expect(location.hash).toBe('#/?q=b');
  });

  it("does not undo a navigation away: the list's late replacement after a click on a session", () => {
    const location = fakeWindow('#/?q=a');
    location.hash = '#/s/abc'; // the click on a row navigated
    replaceHash('#/?q=a&sort=costUsd'); // the list's delayed write of its state comes after
    expect(location.hash).toBe('#/s/abc');
  });
});

describe("a session reference's short form", () => {
  it("is the id's first 8 characters, and a path reference's file's, never the path's start", () => {
    expect(shortRef('cd11f12b-b0ad-4540-90e3-b4254028db1f')).toBe('cd11f12b');
    expect(shortRef('/home/ann/.claude/projects/-home-ann-api/cd11f12b-b0ad-4540-90e3-b4254028db1f')).toBe('cd11f12b');
    expect(shortRef('C:\\Users\\ann\\.claude\\projects\\C--api\\cd11f12b-b0ad-4540-90e3-b4254028db1f.jsonl')).toBe(
      'cd11f12b',
    );
    expect(shortRef('abc')).toBe('abc');
  });

  it('shows an id that is no UUID whole, or marks where it is cut, never a misleading piece of a word', () => {
    expect(['truth@0.61.0', 'mock-request-1', 'edge_case_empty'].map(shortRef)).toEqual([
      'truth@0.61.0',
      'mock-request-1',
      'edge_case_empty',
    ]);
    expect(shortRef('rollout-2026-11-30T10-00-00-01a205f2.jsonl')).toBe('rollout-2026-11-30T10-00…');
  });
});

describe('the short forms of sessions listed together', () => {
  // Codex's ids are time-ordered (UUIDv7): sessions begun within a minute share their first 8 characters and more.
  const ids = [
    '01a205f2-7215-7200-aa11-0839c0abf80f',
    '01a205f2-7215-7a00-bb22-1111c0abf80f',
    '01a205f2-9c40-7000-8000-000000000000',
    '01a205f3-0001-7000-8000-000000000000',
    'cd11f12b-b0ad-4540-90e3-b4254028db1f',
    '/home/ann/.claude/projects/-home-ann-api/0c97beba-0000-4000-8000-0000000000c0.jsonl',
    'truth@0.61.0',
    'truth@0.20.2',
    'rollout-2026-11-30T10-00-00-aaaa.jsonl',
    'rollout-2026-11-30T10-00-00-bbbb.jsonl',
  ];

  it('tells every one from the others by the shortest prefix of at least 8 characters, or the id whole', () => {
    expect([...shortRefs(ids).values()]).toEqual([
      '01a205f2-7215-72',
      '01a205f2-7215-7a',
      '01a205f2-9',
      '01a205f3',
      'cd11f12b',
      '0c97beba',
      'truth@0.61.0',
      'truth@0.20.2',
      'rollout-2026-11-30T10-00-00-a…',
      'rollout-2026-11-30T10-00-00-b…',
    ]);
  });

  it("shows prefixes of the ids' names that only one of them starts with", () => {
    const names = ids.map((id) => id.split('/').at(-1) ?? id);
    for (const [i, short] of [...shortRefs(ids).values()].entries()) {
      const prefix = short.replace(/…$/, '');
      expect(names.filter((name) => name.startsWith(prefix))).toEqual([names[i]]);
    }
  });

  it('tells apart thousands of ids begun in the same minute', () => {
    const many = Array.from(
      { length: 5000 },
      (_, i) => `01a205f2-${(0x7000 + i).toString(16)}-7000-8000-${i.toString(16).padStart(12, '0')}`,
    );
    const shown = shortRefs(many);
    expect(new Set(shown.values()).size).toBe(many.length);
  });
});
