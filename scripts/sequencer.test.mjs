// The order test files start in (test/sequencer.ts): groups in order, projects by their longest file, files longest
// first, a project's files together.
import { describe, expect, it } from 'vitest';
import { orderFiles, recordedTimes } from '../test/sequencer.ts';

const f = (project, name, ms, group = 0) => ({ project, name, ms, group });

describe('the longest test files start first', () => {
  it('orders groups, then projects by their longest file, then files by time', () => {
    const files = [
      f('cli', 'a', 15_000),
      f('cli', 'b', 200),
      f('team', 'c', 64_000),
      f('team', 'd', 300),
      f('web', 'e', 100),
      f('e2e', 'x', 36_000, 1),
      f('e2e', 'y', 40, 1),
      f('server', 'g', 19_000),
      f('cli', 'h', 9_000),
    ];
    expect(orderFiles(files).map((x) => x.name)).toEqual(['c', 'd', 'g', 'a', 'h', 'b', 'e', 'x', 'y']);
  });

  it('keeps the order of equal files stable by project name', () => {
    const files = [f('b', '1', 10), f('a', '2', 10), f('b', '3', 10)];
    expect(orderFiles(files).map((x) => x.name)).toEqual(['2', '1', '3']);
  });

  it('reads the recorded times of the test files', () => {
    const times = recordedTimes();
    expect(times.size).toBeGreaterThan(100);
    for (const [path, ms] of times) {
      expect(path).toMatch(/^(packages|scripts)\/.+\.test\.(ts|tsx|mjs)$/);
      expect(ms).toBeGreaterThanOrEqual(100);
    }
  });
});
