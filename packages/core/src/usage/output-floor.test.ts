import { describe, expect, it } from 'vitest';
import { createToolUseId } from '../model/ids.js';
import {
  costGapsNote,
  costIsLowerBound,
  formatResponseOutput,
  formatTokenLine,
  unrecordedNotes,
} from '../present/numbers.js';
import { dedupeResponses, type UsageRecord } from './dedupe.js';
import { laterUsage, MAX_CHARS_PER_TOKEN, outputFloorOf } from './output-floor.js';

const usage = (outputTokens: number, outputAtLeast?: number) => ({
  inputTokens: 5,
  outputTokens,
  cacheCreationInputTokens: 0,
  cacheCreation1hInputTokens: 0,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
  ...(outputAtLeast === undefined ? {} : { outputAtLeast }),
});

describe('outputFloorOf', () => {
  it('gives what the content took only when the count is below it', () => {
    const text = 'x'.repeat(MAX_CHARS_PER_TOKEN * 3 + 1);
    expect(outputFloorOf([{ kind: 'text', text }], 1)).toBe(4);
    expect(outputFloorOf([{ kind: 'text', text }], 4)).toBeUndefined();
    expect(outputFloorOf([{ kind: 'text', text: 'OK' }], 1)).toBeUndefined();
    expect(outputFloorOf([], 0)).toBeUndefined();
  });

  it('counts thinking and tool inputs, names and keys included', () => {
    const input = {
      todos: Array.from({ length: 5 }, (_, i) => ({ content: `step ${i} `.repeat(10), status: 'pending' })),
    };
    // All of it, whatever the count (another record's count is compared with it too): 464 characters, 8 tokens.
    expect(outputFloorOf([{ kind: 'tool-use', id: createToolUseId('t1'), name: 'TodoWrite', input }], 1)).toBe(8);
    expect(outputFloorOf([{ kind: 'tool-use', id: createToolUseId('t1'), name: 'TodoWrite', input }], 5)).toBe(8);
    expect(outputFloorOf([{ kind: 'thinking', thinking: 'y'.repeat(200) }], 2)).toBe(4);
    // A count that covers the content: nothing, whatever is left to add up.
    expect(
      outputFloorOf([{ kind: 'tool-use', id: createToolUseId('t1'), name: 'TodoWrite', input }], 500),
    ).toBeUndefined();
  });
});

describe("a response whose records kept the stream's first count", () => {
  const record = (messageId: string, output: number, atLeast?: number): UsageRecord => ({
    messageId,
    requestId: undefined,
    model: 'claude-sonnet-4-20250514',
    timestampMs: 1,
    isSynthetic: false,
    tokens: usage(output),
    ...(atLeast === undefined ? {} : { outputAtLeast: atLeast }),
    context: undefined,
  });

  it('is a lower bound only when no record has a count as large as its content', () => {
    const responses = dedupeResponses([
      record('a', 1, 3),
      record('a', 1, 9),
      record('b', 1, 3),
      record('b', 598),
      record('c', 3),
      record('c', 172),
    ]);
    expect(responses.map((r) => [r.key, r.tokens.outputTokens, r.outputUnrecorded ?? false])).toEqual([
      ['a', 1, true],
      ['b', 598, false],
      ['c', 172, false],
    ]);
  });

  it('is still one when another record has a start count above what the first proved short', () => {
    // The first record's whole content floor (8), not only enough to pass its own count (2), against the second's 3.
    const input = {
      todos: Array.from({ length: 5 }, (_, i) => ({ content: `step ${i} `.repeat(10), status: 'pending' })),
    };
    const floor = outputFloorOf([{ kind: 'tool-use', id: createToolUseId('t1'), name: 'TodoWrite', input }], 1);
    expect(dedupeResponses([record('d', 1, floor), record('d', 3)]).map((r) => r.outputUnrecorded)).toEqual([true]);
  });

  it('keeps the larger floor when the timeline takes its records one by one', () => {
    expect(laterUsage(usage(1, 9), usage(1, 3))).toEqual(usage(1, 9));
    expect(laterUsage(usage(1, 3), usage(1))).toEqual(usage(1, 3));
    expect(laterUsage(usage(1, 3), usage(598))).toEqual(usage(598));
    expect(laterUsage(undefined, usage(2, 4))).toEqual(usage(2, 4));
  });

  it('says so wherever its output or cost is written', () => {
    expect(formatResponseOutput(usage(1, 3))).toBe('1 + ? tokens out');
    expect(formatResponseOutput(usage(1))).toBe('1 token out');
    expect(formatResponseOutput(usage(598, 3))).toBe('598 tokens out');
    const gaps = { unpricedModels: [], outputUnrecordedModels: ['claude-sonnet-4-20250514'] };
    expect(costIsLowerBound(gaps)).toBe(true);
    expect(costIsLowerBound({ unpricedModels: [] })).toBe(false);
    expect(costGapsNote(gaps)).toContain('recorded no final output count');
    expect(formatTokenLine(usage(818), gaps)).toBe('5 in · 818 + ? out');
    // A report's warnings, one sentence per kind, the CLI's and the Usage page's alike.
    expect(unrecordedNotes({ ...gaps, inputUnrecordedModels: ['gpt-5.4-mini'] }).map((n) => n.kind)).toEqual([
      'input',
      'output',
    ]);
    expect(unrecordedNotes(gaps)[0]?.text).toMatch(
      /^Some responses of claude-sonnet-4-20250514 recorded no final output count .* \(\+ \?\)$/,
    );
    expect(unrecordedNotes({})).toEqual([]);
  });
});
