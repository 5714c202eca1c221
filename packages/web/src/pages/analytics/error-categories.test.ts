import { describe, expect, it } from 'vitest';
import { categoryRows } from './error-categories';

describe('categoryRows', () => {
  it('gives a category real and expected on one row, the most errors first', () => {
    const rows = categoryRows([
      { category: 'not-running', severity: 'error', count: 2 },
      { category: 'validation', severity: 'error', count: 3 },
      { category: 'not-running', severity: 'expected', count: 4 },
      { category: 'user-rejected', severity: 'expected', count: 3 },
    ]);
    expect(rows).toEqual([
      { category: 'not-running', real: 2, expected: 4 },
      { category: 'user-rejected', real: 0, expected: 3 },
      { category: 'validation', real: 3, expected: 0 },
    ]);
    expect(new Set(rows.map((r) => r.category)).size).toBe(rows.length);
  });

  it('has no rows without errors', () => {
    expect(categoryRows([])).toEqual([]);
  });
});
