import { useCallback, useMemo } from 'react';
import type { SessionErrorHit } from '../../data/types';

/** A move through a list: next, previous (wrapping), or straight to a position. */
export type Step = 1 | -1 | { readonly go: number };

export const stepTo = (pos: number, step: Step, length: number): number =>
  typeof step === 'object' ? step.go : pos < 0 ? (step === 1 ? 0 : length - 1) : (pos + step + length) % length;

/** The timeline's rows: every event, or (errors only) the events that hold an error, in order. */
export function useRows(errors: readonly SessionErrorHit[], errorsOnly: boolean, total: number) {
  const errorRows = useMemo(() => [...new Set(errors.map((e) => e.index))].sort((a, b) => a - b), [errors]);
  const filtered = errorsOnly && errorRows.length > 0;
  const rowIndex = useCallback((row: number) => (filtered ? (errorRows[row] ?? 0) : row), [filtered, errorRows]);
  const rowOf = useCallback((index: number) => (filtered ? errorRows.indexOf(index) : index), [filtered, errorRows]);
  return { filtered, count: filtered ? errorRows.length : total, rowIndex, rowOf };
}
