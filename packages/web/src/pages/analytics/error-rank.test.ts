import { describe, expect, it } from 'vitest';
import { realErrorRate } from '../../ui/format';
import { MIN_RANKED_CALLS, rankByErrorRate } from './error-rank';

const tool = (name: string, calls: number, errors: number, expectedErrors = 0) => ({
  tool: name,
  calls,
  errors,
  expectedErrors,
});

describe('rankByErrorRate', () => {
  // As the wild homes have them: six tools failing their one call, ExitPlanMode 3 of 9 (one expected).
  const once = ['FailingTool', 'NoSuchTool', 'a', 'b', 'c', 'd'].map((n) => tool(n, 1, 1));
  const tools = [
    ...once,
    tool('ExitPlanMode', 9, 3, 1),
    tool('WebFetch', 100, 30),
    tool('Bash', 1000, 300, 250),
    tool('Read', 900, 9),
    tool('Edit', 50, 0),
    tool('Stop', 20, 4, 4),
  ];

  it('ranks no tool of fewer calls than the minimum, and counts them', () => {
    const { ranked, fewCalls } = rankByErrorRate(tools, 14);
    expect(ranked.every((t) => t.calls >= MIN_RANKED_CALLS)).toBe(true);
    expect(fewCalls).toBe(once.length);
    expect(ranked[0]?.tool).toBe('WebFetch');
  });

  it('orders the bars by the rate they show, longest first, errors counted without the expected ones', () => {
    const { ranked } = rankByErrorRate(tools, 14);
    expect(ranked.map((t) => t.tool)).toEqual(['WebFetch', 'ExitPlanMode', 'Bash', 'Read']);
    const rates = ranked.map(realErrorRate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    // as the table counts it: 2 of 9, the expected one apart
    expect(realErrorRate(tool('ExitPlanMode', 9, 3, 1))).toBeCloseTo(2 / 9, 9);
    // a tool whose errors are all expected is not ranked
    expect(ranked.map((t) => t.tool)).not.toContain('Stop');
  });

  it('keeps the first `top`', () => {
    expect(rankByErrorRate(tools, 2).ranked.map((t) => t.tool)).toEqual(['WebFetch', 'ExitPlanMode']);
  });
});
