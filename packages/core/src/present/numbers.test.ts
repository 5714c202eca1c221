import { describe, expect, it } from 'vitest';
import {
  costGapsNote,
  formatBytes,
  formatCompact,
  formatCost,
  formatCount,
  formatPercent,
  formatTokenLine,
  formatTokenParts,
  formatTokensAtLeast,
  groupDigits,
  plural,
  sumTokens,
  unrecordedNotes,
} from './numbers.js';

describe('numbers', () => {
  it('counts keep every digit', () => {
    expect([formatCount(2746), formatCount(0), formatCount(undefined)]).toEqual(['2,746', '0', '—']);
  });

  it('groups digits as en-US does, for every size and sign', () => {
    const values = [
      0, 7, 12, 999, 1000, 1001, 99_999, 123_456, 1_234_567, 987_654_321_012, -5, -1234, -1_000_000, 2.5, 1234.49, -0.4,
    ];
    for (let i = 1; i < 1e15; i *= 7) values.push(i, i + 0.6, -i);
    expect(values.map(groupDigits)).toEqual(
      values.map((v) => Math.round(v).toLocaleString('en-US').replace(/^-0$/, '0')),
    );
  });

  it('compact figures switch unit without ever reading 1000.0k', () => {
    expect([9876, 12_345, 999_960, 12_900_000, 999_960_000, 2_345_000_000].map(formatCompact)).toEqual([
      '9,876',
      '12.3k',
      '1.0M',
      '12.9M',
      '1.00B',
      '2.35B',
    ]);
  });

  it('costs, bytes, percents', () => {
    expect([
      formatCost(0.0421),
      formatCost(12.5),
      formatCost(0),
      formatCost(null),
      formatCost(1, { unpricedModels: ['x'] }),
    ]).toEqual(['$0.042', '$12.50', '$0.00', 'unknown', '$1.00 + ?']);
    // A lower bound: a model without a price, or responses that recorded no input (Copilot CLI 1.0.64).
    const copilot = { unpricedModels: [], inputUnrecordedModels: ['claude-sonnet-4.6'] };
    expect([
      formatCost(0.29, copilot),
      formatCost(0.29, { unpricedModels: [] }),
      formatCost(0.29, { unpricedModels: [], inputUnrecordedModels: [] }),
      formatCost(null, copilot),
      costGapsNote(copilot),
      costGapsNote({ unpricedModels: ['x'] }),
      costGapsNote({ unpricedModels: [], inputUnrecordedModels: ['a', 'b'] }),
      // a session whose files never named their model is said so, not by the placeholder's id
      costGapsNote({ unpricedModels: ['gpt-5.6', 'codex-unknown-model'] }),
      unrecordedNotes({ outputUnrecordedModels: ['codex-unknown-model'] })[0]?.text.slice(0, 40),
    ]).toEqual([
      '$0.29 + ?',
      '$0.29',
      '$0.29',
      'unknown',
      'No input recorded for some responses of claude-sonnet-4.6: only what was recorded is counted',
      'No price for x',
      'No input recorded for some responses of a, b: only what was recorded is counted',
      'No price for gpt-5.6, unknown Codex model',
      'Some responses of unknown Codex model re',
    ]);
    expect([formatBytes(512), formatBytes(1536), formatBytes(1023.99 * 1024), formatBytes(3 * 1024 ** 3)]).toEqual([
      '512 B',
      '1.5 KiB',
      '1.0 MiB',
      '3.00 GiB',
    ]);
    expect([formatPercent(0), formatPercent(0.0004), formatPercent(0.0123), formatPercent(0.456)]).toEqual([
      '0%',
      '<0.1%',
      '1.2%',
      '46%',
    ]);
  });

  it('plural', () => {
    expect([plural(1, 'call'), plural(2746, 'call'), plural(2, 'match', 'matches')]).toEqual([
      '1 call',
      '2,746 calls',
      '2 matches',
    ]);
  });
});

describe('token parts', () => {
  const claude = { inputTokens: 1200, outputTokens: 35_100, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
  const codex = { ...claude, reasoningOutputTokens: 12_000 };
  it('shows reasoning on its own, after the output it is part of, only when there is some', () => {
    expect(formatTokenParts(sumTokens([codex, codex, claude]))).toEqual([
      { value: formatCompact(3600), label: 'in' },
      { value: formatCompact(105_300), label: 'out' },
      { value: formatCompact(24_000), label: 'of which reasoning' },
    ]);
    expect(sumTokens([claude, claude])).toEqual({ ...claude, inputTokens: 2400, outputTokens: 70_200 });
    expect(formatTokenParts(claude).map((p) => p.label)).toEqual(['in', 'out']);
  });
  it('gives the input as unknown or a lower bound where some responses recorded none (Copilot CLI 1.0.64)', () => {
    const gaps = { inputUnrecordedModels: ['claude-sonnet-4.6'] };
    expect(formatTokenLine({ ...claude, inputTokens: 0 }, gaps)).toBe(`? in · ${formatCompact(35_100)} out`);
    expect(formatTokenLine(claude, gaps)).toBe(`${formatCompact(1200)} + ? in · ${formatCompact(35_100)} out`);
    expect(formatTokenLine(claude, { inputUnrecordedModels: [] })).toBe(formatTokenLine(claude));
    expect([formatTokensAtLeast(0, true), formatTokensAtLeast(1200, true), formatTokensAtLeast(1200, false)]).toEqual([
      '?',
      `${formatCompact(1200)} + ?`,
      formatCompact(1200),
    ]);
  });
});
