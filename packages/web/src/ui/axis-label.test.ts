import { describe, expect, it } from 'vitest';
import { fitLabel } from './axis-label';

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
