import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions, samplesHome } from '../../test/helpers.js';
import { extremesBy, type HeaderCall, headerCallOf, headerCountsOf, systemNoteLabel, timelineShows } from './header.js';

/** A system record's content as Claude Code 2.1.218 wrote it for `/remote-control` (a wild session). */
const REMOTE_CONTROL =
  '<command-name>/remote-control</command-name>\n            <command-message>remote-control</command-message>\n            <command-args></command-args>';

const call = (id: string, extra: Partial<HeaderCall> = {}): HeaderCall => ({
  id,
  canonicalName: 'Bash',
  isError: false,
  expected: false,
  taskId: undefined,
  startedThread: undefined,
  ...extra,
});

describe('timelineShows', () => {
  it.each([
    [{ kind: 'user', hidden: undefined }, 'prompt'],
    [{ kind: 'user', hidden: 'command' }, 'note'],
    [{ kind: 'user', hidden: 'compact-summary' }, 'note'],
    [{ kind: 'user', hidden: 'meta' }, undefined],
    [{ kind: 'system', subtype: 'turn_duration', content: undefined }, undefined],
    [{ kind: 'system', subtype: 'stop_hook_summary', content: undefined }, undefined],
    [{ kind: 'system', subtype: 'api_error', content: undefined }, 'note'],
    [{ kind: 'system', subtype: undefined, content: undefined }, 'note'],
    // A slash command Claude Code wrote as system records (2.0.69, 2.1.218): as the user messages of one are shown.
    [{ kind: 'system', subtype: 'local_command', content: REMOTE_CONTROL }, 'note'],
    [
      {
        kind: 'system',
        subtype: 'local_command',
        content: '<local-command-stdout>Resume cancelled</local-command-stdout>',
      },
      'note',
    ],
    [{ kind: 'system', subtype: 'local_command', content: '<local-command-stdout></local-command-stdout>' }, undefined],
    [{ kind: 'system', subtype: 'local_command', content: undefined }, 'note'],
  ] as const)('%j shows as %s', (facts, shown) => {
    expect(timelineShows(facts)).toBe(shown);
  });
});

describe('systemNoteLabel', () => {
  it('names a slash command and its output as the user messages of one are named, any other note by its subtype', () => {
    expect(systemNoteLabel({ subtype: 'local_command', content: REMOTE_CONTROL })).toBe('command');
    expect(
      systemNoteLabel({
        subtype: 'local_command',
        content: '<local-command-stdout>Resume cancelled</local-command-stdout>',
      }),
    ).toBe('command-output');
    expect(systemNoteLabel({ subtype: 'local_command', content: 'Something else' })).toBe('local_command');
    expect(systemNoteLabel({ subtype: 'api_error', content: undefined })).toBe('api_error');
    expect(systemNoteLabel({ subtype: undefined, content: undefined })).toBe('system');
  });
});

describe('headerCountsOf', () => {
  it('counts tools in order of first use, the first call of each task, and errors through nested subagents', () => {
    const calls = [
      call('a', { canonicalName: 'Agent', startedThread: 'sub1' }),
      call('b', { isError: true, taskId: 't1' }),
      call('c', { canonicalName: 'Read', isError: true, expected: true, taskId: 't1' }),
      call('d', { canonicalName: 'Agent', isError: true, startedThread: 'sub2' }),
      call('e', { isError: true }),
    ];
    const counts = headerCountsOf({
      calls,
      main: { shownEvents: 7 },
      threads: [
        // sub1 started sub2, which names sub1 again: counted once, no endless walk
        { key: 'sub1', started: true, shownEvents: 3, calls: [calls[1], calls[3]].filter((c) => c !== undefined) },
        {
          key: 'sub2',
          started: true,
          shownEvents: 2,
          calls: [calls[4], call('f', { startedThread: 'sub1' })].filter((c) => c !== undefined),
        },
      ],
    });
    expect(counts).toEqual({
      totalEvents: 7,
      toolCalls: 5,
      errors: 4,
      expectedErrors: 1,
      toolCounts: { Agent: 2, Bash: 2, Read: 1 },
      shells: { t1: 'b' },
      threads: [
        { toolCalls: 2, errors: 3, expectedErrors: 0 },
        { toolCalls: 2, errors: 3, expectedErrors: 0 },
      ],
    });
  });

  it('without a main thread, the main timeline is the runs no call started', () => {
    const counts = headerCountsOf({
      calls: [],
      main: undefined,
      threads: [
        { key: 'x', started: false, shownEvents: 4, calls: [] },
        { key: 'y', started: true, shownEvents: 10, calls: [] },
        { key: 'z', started: false, shownEvents: 1, calls: [] },
      ],
    });
    expect(counts.totalEvents).toBe(5);
  });

  it('counts the calls of the sample sessions as their statuses and severities say', async () => {
    const sessions = await loadSessions(join(samplesHome, 'projects'));
    const calls = sessions.flatMap((s) => s.calls);
    const counts = headerCountsOf({ calls: calls.map(headerCallOf), main: undefined, threads: [] });
    expect([counts.toolCalls, counts.errors, counts.expectedErrors]).toEqual([
      calls.length,
      calls.filter((c) => c.status === 'error').length,
      calls.filter((c) => c.result?.error?.severity === 'expected').length,
    ]);
    expect(counts.errors).toBeGreaterThan(0);
    expect(counts.expectedErrors).toBeGreaterThan(0);
  });
});

describe('extremesBy', () => {
  it('keeps the first met of equal times and passes over items without one', () => {
    const items = [
      { n: 1, ms: 5 },
      { n: 2, ms: undefined },
      { n: 3, ms: 2 },
      { n: 4, ms: 9 },
      { n: 5, ms: 2 },
      { n: 6, ms: 9 },
    ];
    const { first, last } = extremesBy(items, (i) => i.ms);
    expect([first?.n, last?.n]).toEqual([3, 4]);
    expect(extremesBy([], () => 1)).toEqual({ first: undefined, last: undefined });
  });
});
