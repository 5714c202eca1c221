import type { StatsResponse } from '../../data/types';

/** One error category's failing calls: the real errors and the expected ones (a row of the categories chart). */
export interface CategoryRow {
  readonly category: string;
  readonly real: number;
  readonly expected: number;
}

/**
 * The stats' categories, one row per category with its real and expected errors side by side (the stats give one
 * entry per category and severity: a category both real and expected was listed twice, which read as a duplicate);
 * the most errors first, then by name.
 */
export function categoryRows(categories: StatsResponse['categories']): CategoryRow[] {
  const rows = new Map<string, { real: number; expected: number }>();
  for (const c of categories) {
    const row = rows.get(c.category) ?? { real: 0, expected: 0 };
    if (c.severity === 'expected') row.expected += c.count;
    else row.real += c.count;
    rows.set(c.category, row);
  }
  return [...rows]
    .map(([category, r]) => ({ category, ...r }))
    .sort((a, b) => b.real + b.expected - (a.real + a.expected) || a.category.localeCompare(b.category));
}
