import { describe, expect, test } from 'vitest';
import { aiderBlocks } from './blocks.js';
import { searchReplaceEdits, usageOfLegacyTokensLine, wholeFileEdits } from './edit-blocks.js';

// Shapes taken from the bundled histories (test/fixtures/aider, SOURCES.md), cut to a few lines.

describe('searchReplaceEdits: the markers of every Aider version', () => {
  test.each([
    ['SEARCH', 'REPLACE'],
    ['ORIGINAL', 'UPDATED'],
    ['HEAD', 'updated'],
  ])('%s / %s, the file named above the fence', (open, close) => {
    const lines = ['```python', 'acronym.py', `<<<<<<< ${open}`, 'old', '=======', 'new', `>>>>>>> ${close}`, '```'];
    expect(searchReplaceEdits(lines)).toEqual([
      { index: 2, end: 6, filePath: 'acronym.py', search: 'old', replace: 'new' },
    ]);
  });

  test('a block never closed stays text', () => {
    expect(searchReplaceEdits(['f.py', '<<<<<<< HEAD', 'old', '======='])).toEqual([]);
  });
});

describe('wholeFileEdits: files listed whole, only those Aider said it applied', () => {
  const applied = new Set(['leap.py']);

  test('the name on the line above the fence, plain or decorated', () => {
    for (const name of ['leap.py', '**leap.py**', '`leap.py`:', '### leap.py']) {
      expect(wholeFileEdits([name, '```python', 'def leap():', '    pass', '```'], applied)).toEqual([
        { index: 0, filePath: 'leap.py', content: 'def leap():\n    pass' },
      ]);
    }
  });

  test('one file applied, no fence naming it: the last fence (Aider with one file in the chat)', () => {
    const lines = ['Here it is:', '', '```', 'v1', '```', 'Better:', '```', 'v2', '```'];
    expect(wholeFileEdits(lines, applied)).toEqual([{ index: 6, filePath: 'leap.py', content: 'v2' }]);
  });

  test('a fence the model never closed (cut off at its token limit): the rest of the answer', () => {
    expect(wholeFileEdits(['leap.py', '```', 'def leap(', '  "I'], applied)).toEqual([
      { index: 0, filePath: 'leap.py', content: 'def leap(\n  "I' },
    ]);
  });

  test('nothing applied, or two files and no names: no edit made up', () => {
    expect(wholeFileEdits(['leap.py', '```', 'x', '```'], new Set())).toEqual([]);
    expect(wholeFileEdits(['```', 'x', '```'], new Set(['a.py', 'b.py']))).toEqual([]);
  });
});

test("Aider 0.1x's token report: exact counts; any other line is none", () => {
  expect(usageOfLegacyTokensLine('945 prompt tokens, 194 completion tokens, $0.039990 cost')).toEqual({
    inputTokens: 945,
    outputTokens: 194,
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: 0,
  });
  expect(usageOfLegacyTokensLine('Tokens: 2.1k sent, 120 received.')).toBeUndefined();
});

test("an answer cut off inside its fence does not swallow Aider's next lines", () => {
  const text = ['f.py', '```', 'def f(', '', '> Applied edit to f.py  ', '', '#### E  ', ''].join('\n');
  expect(aiderBlocks(text).map((b) => [b.kind, b.startLine])).toEqual([
    ['answer', 1],
    ['output', 5],
    ['user', 7],
  ]);
});
