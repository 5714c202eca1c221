import { describe, expect, it } from 'vitest';
import { errorRateLowerBound, rankByErrorRate } from './error-rank';

describe('rankByErrorRate', () => {
  it('a tool called once that failed does not top tools that fail as often over many calls', () => {
    const tools = [
      { tool: 'mcp__once', calls: 1, errors: 1 },
      { tool: 'WebFetch', calls: 100, errors: 30 },
      { tool: 'Bash', calls: 1000, errors: 300 },
      { tool: 'Read', calls: 900, errors: 9 },
      { tool: 'Edit', calls: 50, errors: 0 },
    ];
    // Ranked by rate alone, the 1-call tool came first at 100 %.
    expect(rankByErrorRate(tools, 14).map((t) => t.tool)).toEqual(['Bash', 'WebFetch', 'mcp__once', 'Read']);
    expect(rankByErrorRate(tools, 2).map((t) => t.tool)).toEqual(['Bash', 'WebFetch']);
  });

  it('the lower bound grows with the sample at the same rate, and stays within [0, rate]', () => {
    expect(errorRateLowerBound(1, 1)).toBeCloseTo(0.2065, 3);
    expect(errorRateLowerBound(30, 100)).toBeCloseTo(0.2189, 3);
    expect(errorRateLowerBound(300, 1000)).toBeCloseTo(0.2724, 3);
    expect(errorRateLowerBound(0, 10)).toBe(0);
    expect(errorRateLowerBound(0, 0)).toBe(0);
  });
});
