import { describe, expect, it } from 'vitest';
import { rolloutLine, rolloutSessions } from '../../../test/codex-rollout.js';
import type { IsoTimestamp } from '../../model/ids.js';
import { primaryDurationMs } from '../../model/tool-call.js';
import { codexDurations } from './durations.js';

const ID = '019a4ea6-0000-7000-8000-000000000034';

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

describe('a Codex call whose client wrote its line with its output, after the tool ran (0.63 and earlier)', () => {
  const sessionOf = rolloutSessions(ID);
  /** A rollout of `version` with one shell call and its output written `gapMs` apart, the output reporting no run. */
  const rollout = (version: string, gapMs: number) =>
    [
      rolloutLine('2025-11-01T17:39:40.000Z', 'session_meta', { id: ID, cwd: '/repo', cli_version: version }),
      rolloutLine('2025-11-01T17:39:41.000Z', 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Fix the README.' }],
      }),
      rolloutLine('2025-11-01T17:39:49.020Z', 'response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'make docs'] }),
        call_id: 'call_1',
      }),
      rolloutLine(new Date(Date.parse('2025-11-01T17:39:49.020Z') + gapMs).toISOString(), 'response_item', {
        type: 'function_call_output',
        call_id: 'call_1',
        output: 'docs built',
      }),
    ].join('\n');

  // Before: "(0 ms)", the two lines' shared millisecond (../shared/wild-agents openprintkit-1 0.34: 19 shell calls).
  it('has no duration when its output reports none: the lines were written at once, whatever the run took', async () => {
    const [call] = (await sessionOf(rollout('0.34.0', 0))).calls;
    expect([call?.durations, call && primaryDurationMs(call)]).toEqual([[], undefined]);
  });
  it('keeps the delta of a later client, which writes the call when it is asked for', async () => {
    const [call] = (await sessionOf(rollout('0.98.0', 3))).calls;
    expect(call?.durations).toEqual([{ source: 'timestamps', ms: 3 }]);
  });
});
