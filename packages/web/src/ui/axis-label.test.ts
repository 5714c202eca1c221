import { describe, expect, it } from 'vitest';
import { costTickFormat, fitLabel } from './axis-label';

describe('fitLabel', () => {
  it('keeps a label that fits, cuts a path at its start and a name at its end', () => {
    expect(fitLabel('…/proj/shell', 170, 'start')).toBe('…/proj/shell');
    const path = '…/worktrees/feature-branch-with-a-long-name';
    const cut = fitLabel(path, 170, 'start');
    expect(cut.startsWith('…')).toBe(true);
    expect(path.endsWith(cut.slice(1))).toBe(true);
    expect(cut.length).toBe(Math.floor((170 - 12) / 7));
    const name = fitLabel('mcp__a_server__a_very_long_tool_name_indeed', 150, 'end');
    expect(name.endsWith('…')).toBe(true);
    expect(name.length).toBe(Math.floor((150 - 12) / 7));
  });
});

describe('costTickFormat', () => {
  const labels = (ticks: number[]) => ticks.map(costTickFormat(ticks));

  it('gives every tick of one axis one format', () => {
    expect(labels([0, 9, 18, 27, 36])).toEqual(['$0', '$9', '$18', '$27', '$36']);
    expect(labels([0, 2.5, 5, 7.5, 10])).toEqual(['$0.00', '$2.50', '$5.00', '$7.50', '$10.00']);
    expect(labels([0, 0.3, 0.6, 0.9, 1.2])).toEqual(['$0.00', '$0.30', '$0.60', '$0.90', '$1.20']);
  });

  it('shows fractions of a cent on a small axis rather than the same label twice', () => {
    expect(labels([0, 0.005, 0.01, 0.015, 0.02])).toEqual(['$0.000', '$0.005', '$0.010', '$0.015', '$0.020']);
    // what the chart library picks for a maximum of $0.0000004: ten-millionths, not "$0" five times
    expect(labels([0, 1e-7, 2e-7, 3e-7, 4e-7])).toEqual([
      '$0.0000000',
      '$0.0000001',
      '$0.0000002',
      '$0.0000003',
      '$0.0000004',
    ]);
  });
});
