import { afterEach, describe, expect, it, vi } from 'vitest';
import { replaceLater } from './page-address';
import { parseHash, replaceHash, shortRef } from './router';

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

describe("a page's delayed write of its state", () => {
  it('replaces the address it was due to replace, never one a navigation within the page put there meanwhile', () => {
    vi.useFakeTimers();
    try {
      const location = fakeWindow('#/analytics');
      replaceLater('#/analytics?project=api', 250);
      vi.advanceTimersByTime(250);
      expect(location.hash).toBe('#/analytics?project=api');
      // a link to a drill-down of the same page followed before the write: its address stays (was undone)
      replaceLater('#/analytics', 250);
      location.hash = '#/analytics?category=exit-code&severity=error';
      vi.advanceTimersByTime(250);
      expect(location.hash).toBe('#/analytics?category=exit-code&severity=error');
      // cancelled: nothing written
      const cancel = replaceLater('#/analytics?agent=codex', 250);
      cancel();
      vi.advanceTimersByTime(250);
      expect(location.hash).toBe('#/analytics?category=exit-code&severity=error');
    } finally {
      vi.useRealTimers();
    }
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

describe('an address of no page', () => {
  it("is a page of its own, never the sessions list under another page's address", () => {
    const unknown = [
      '#/files',
      '#/waterfall',
      '#/analytcs?range=7d',
      '#/s/abc/diff',
      '#/s/',
      '#/s//files',
      '#/s/%E0%A4%A',
    ];
    for (const hash of unknown.filter((h) => !h.startsWith('#/s/abc'))) {
      expect(parseHash(hash), hash).toEqual({ page: 'unknown', address: hash });
    }
    // a view of a session that does not exist names the session, to link to it
    expect(parseHash('#/s/abc/diff')).toEqual({ page: 'unknown', address: '#/s/abc/diff', session: 'abc' });
    // a session's address written another way links to it (not shown under that address)
    for (const hash of ['#/session/abc', '#/sessions/abc', '#/session/abc?call=x'])
      expect(parseHash(hash), hash).toEqual({ page: 'unknown', address: hash, session: 'abc' });
    for (const hash of ['', '#', '#/', '#/?q=npm%20test']) expect(parseHash(hash).page, hash).toBe('sessions');
    expect(parseHash('#/s/abc/waterfall')).toEqual({ page: 'waterfall', id: 'abc' });
    expect(parseHash('#/s/abc/files')).toEqual({ page: 'files', id: 'abc' });
    expect(parseHash('#/s/abc?call=toolu_1').page).toBe('session');
  });
});
