import { describe, expect, it } from 'vitest';
import { analyticsHash, analyticsStateOf } from '../pages/analytics/analytics-address';
import { USAGE_DEFAULTS, usageHash, usageStateOf } from '../pages/usage/usage-address';
import { parseHash } from './router';

/** The query of a page's hash, as the router hands it to the page. */
const queryOf = (hash: string): string => {
  const route = parseHash(hash);
  return 'query' in route ? route.query : '';
};

describe('the usage page in its address', () => {
  it('is `#/usage` in its default state and keeps every other state through a reload', () => {
    expect(usageHash(USAGE_DEFAULTS)).toBe('#/usage');
    const state = { range: '7d', project: '/home/me/my app & co', agent: 'codex', metric: 'tokens' } as const;
    const hash = usageHash(state);
    expect(parseHash(hash).page).toBe('usage');
    expect(usageStateOf(queryOf(hash))).toEqual(state);
  });

  it('reads what it does not know as the default', () => {
    expect(usageStateOf('range=90d&metric=joules&agent=<b>')).toEqual(USAGE_DEFAULTS);
  });
});

describe('the analytics page in its address', () => {
  it('keeps its project and agent, and is `#/analytics` without them', () => {
    expect(analyticsHash({ project: '', agent: '' })).toBe('#/analytics');
    const hash = analyticsHash({ project: 'api?x=1#y', agent: 'gemini' });
    expect(parseHash(hash).page).toBe('analytics');
    expect(analyticsStateOf(queryOf(hash))).toEqual({ project: 'api?x=1#y', agent: 'gemini' });
    expect(analyticsStateOf('agent=Not An Id')).toEqual({ project: '', agent: '' });
    // a drill-down: of a tool, of a category (and severity), of a project; a category of no such name is none
    for (const drill of [
      { tool: 'Bash' },
      { category: 'exit-code', severity: 'error' },
      { project: '/p?x' },
    ] as const) {
      const withDrill = analyticsHash({ project: 'api', agent: '', drill });
      expect(analyticsStateOf(queryOf(withDrill))).toEqual({ project: 'api', agent: '', drill });
    }
    expect(analyticsStateOf('category=no-such&severity=error')).toEqual({ project: '', agent: '' });
  });
});
