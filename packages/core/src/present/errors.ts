/**
 * How error counts and severities are shown: expected errors (part of normal work) always apart from real ones.
 * @module
 */

import { groupDigits } from './numbers.js';

/** Colour names, not colours: each surface maps them to its palette (ANSI in the CLI, CSS variables in the web). */
export const toneNames = ['ok', 'muted', 'info', 'warn', 'error'] as const;
export type Tone = (typeof toneNames)[number];

export interface ErrorCounts {
  /** Every call whose result is an error, expected ones included. */
  readonly errors: number;
  /** Of those, the ones that are part of normal work. */
  readonly expectedErrors: number;
}

/** Real errors: all errors less the expected ones. */
export function realErrors(counts: ErrorCounts): number {
  return Math.max(0, counts.errors - counts.expectedErrors);
}

/**
 * The words for an error count: `0`, `3`, `0 +2 expected`, `3 +1 expected`.
 * @example formatErrors({ errors: 2, expectedErrors: 2 }) // '0 +2 expected'
 */
export function formatErrors(counts: ErrorCounts): string {
  const real = realErrors(counts);
  const expected = Math.min(counts.errors, counts.expectedErrors);
  const head = groupDigits(real);
  return expected > 0 ? `${head} +${groupDigits(expected)} expected` : head;
}

/** The tone of an error count: `error` when any is real, `muted` when all are expected, else `ok`. */
export function errorsTone(counts: ErrorCounts): Tone {
  if (realErrors(counts) > 0) return 'error';
  return counts.expectedErrors > 0 ? 'muted' : 'ok';
}
