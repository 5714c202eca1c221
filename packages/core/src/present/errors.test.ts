import { describe, expect, it } from 'vitest';
import { errorsTone, formatErrors, realErrors } from './errors.js';
import { formatToolName } from './tool-name.js';

describe('error counts', () => {
  it('expected errors are shown apart from real ones', () => {
    expect([
      formatErrors({ errors: 0, expectedErrors: 0 }),
      formatErrors({ errors: 2, expectedErrors: 2 }),
      formatErrors({ errors: 119, expectedErrors: 15 }),
    ]).toEqual(['0', '0 +2 expected', '104 +15 expected']);
    expect(realErrors({ errors: 119, expectedErrors: 15 })).toBe(104);
  });

  it('tones are names', () => {
    expect([
      errorsTone({ errors: 0, expectedErrors: 0 }),
      errorsTone({ errors: 2, expectedErrors: 2 }),
      errorsTone({ errors: 3, expectedErrors: 1 }),
    ]).toEqual(['ok', 'muted', 'error']);
  });
});

describe('tool names', () => {
  it('the canonical name, with the written name when it differs', () => {
    expect([
      formatToolName('Agent', ['Task', 'Agent']),
      formatToolName('Bash', ['Bash']),
      formatToolName('Read'),
    ]).toEqual(['Agent (Task)', 'Bash', 'Read']);
  });
});
