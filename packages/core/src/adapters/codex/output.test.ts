import { describe, expect, it } from 'vitest';
import { parseCodexOutput } from './output.js';

describe('a Codex tool output', () => {
  it('of one content item, not a list of them, is read as its text (wild agent-sessions fixture)', () => {
    // Before: shown as the item's JSON, `{"type":"input_text","text":"a.txt\n",…}`.
    const one = parseCodexOutput({ type: 'input_text', text: 'a.txt\n', detail: null, image_url: null });
    expect(one.content).toEqual([{ kind: 'text', text: 'a.txt\n' }]);
    expect(parseCodexOutput([{ type: 'input_text', text: 'a.txt\n' }]).content).toEqual(one.content);
  });

  it('of another object keeps it whole, as its JSON', () => {
    expect(parseCodexOutput({ type: 'something_else', n: 1 }).content).toBe('{"type":"something_else","n":1}');
    expect(parseCodexOutput({ content: 'done' }).content).toBe('done');
  });
});
