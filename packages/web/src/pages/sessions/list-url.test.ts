import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, listQueryOf, listStateOf, touchedFileHref } from './list-url';
import { type Filters, NO_FILTERS, type Sort } from './use-session-list';

describe('the sessions list in the address', () => {
  it('leaves the plain list as #/ (no query)', () => {
    expect(listQueryOf(NO_FILTERS, DEFAULT_SORT)).toBe('');
    expect(listStateOf('')).toEqual({ filters: NO_FILTERS, sort: DEFAULT_SORT });
  });

  it('gives back every filter and order it wrote', () => {
    const filters: Filters = {
      q: 'npm test "a b" & ?',
      agent: 'codex',
      project: '/home/me/a b',
      model: 'claude-opus-4-1',
      version: '2.1.3',
      since: '2026-11-01',
      until: '2026-11-20',
      hasErrors: true,
      file: '/home/me/a b/src/app.ts',
      showEmpty: true,
    };
    const sorts: Sort[] = [
      { key: 'costUsd', dir: -1 },
      { key: 'costUsd', dir: 1 },
      { key: 'title', dir: 1 },
      { key: 'title', dir: -1 },
      { key: 'startedAt', dir: 1 },
    ];
    for (const sort of sorts) {
      const query = listQueryOf(filters, sort);
      expect(listStateOf(query), query).toEqual({ filters, sort });
    }
    expect(listQueryOf(filters, { key: 'costUsd', dir: -1 })).toContain('errors=1');
  });

  it('links a file to the list of the sessions that touched it, its path whole in the address', () => {
    const path = '/home/me/a b/src/app&x=1#top?.ts';
    const href = touchedFileHref(path);
    expect(href.startsWith('#/?file=')).toBe(true);
    expect(listStateOf(href.slice('#/?'.length))).toEqual({
      filters: { ...NO_FILTERS, file: path },
      sort: DEFAULT_SORT,
    });
  });

  it('reads a wrong or unknown value as its default', () => {
    const { filters, sort } = listStateOf('agent=No%20body&since=yesterday&sort=cheapest&dir=up&errors=yes&x=1');
    expect(filters).toEqual(NO_FILTERS);
    // An id-shaped agent is kept: whether it exists is the registry's to say (`useSessionList` asks GET /api/agents).
    expect(listStateOf('agent=nobody').filters).toEqual({ ...NO_FILTERS, agent: 'nobody' });
    expect(sort).toEqual(DEFAULT_SORT);
    // A column named without a direction sorts as its header does at first.
    expect(listStateOf('sort=project').sort).toEqual({ key: 'project', dir: 1 });
    expect(listStateOf('sort=errors').sort).toEqual({ key: 'errors', dir: -1 });
  });
});
