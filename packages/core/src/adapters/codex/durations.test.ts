import { describe, expect, it } from 'vitest';
import type { IsoTimestamp } from '../../model/ids.js';
import { codexDurations } from './durations.js';

const at = (iso: string) => iso as IsoTimestamp;
const call = (iso: string, input: unknown = {}) => ({
  timestamp: at(iso),
  loc: { file: 'r.jsonl', line: 104, offset: 0 },
  input,
});
const output = (iso: string, durationSeconds: number) => ({
  timestamp: at(iso),
  toolUseResult: { durationSeconds },
  loc: { file: 'r.jsonl', line: 106, offset: 0 },
});
const shown = (durations: readonly { source: string; ms: number }[]) => durations.map((d) => `${d.source} ${d.ms}`);

describe('a Codex call that waited before it ran', () => {
  // Before: "apply_patch … (54 s)": the wait for the person's approval in a read-only sandbox, shown as the patch's
  // run (../shared/wild-agents dusseldorfer-1: call 08:43:14.685, output 08:44:08.287, duration_seconds 0.0).
  it('is its reported run when the delta is longer by more than a few seconds, whatever asked for the wait', () => {
    expect(shown(codexDurations(call('2026-01-20T08:43:14.685Z'), output('2026-01-20T08:44:08.287Z', 0)))).toEqual([
      'durationSeconds 0',
    ]);
  });
  it('keeps the delta first beside a report that says about as much (a command run as long as it took)', () => {
    expect(shown(codexDurations(call('2026-01-20T08:43:14.000Z'), output('2026-01-20T08:43:16.500Z', 2.3)))).toEqual([
      'timestamps 2500',
      'durationSeconds 2300',
    ]);
  });
});
