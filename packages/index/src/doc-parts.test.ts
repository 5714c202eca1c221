import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '../test/synthetic.js';
import { type DocPart, indexedText } from './doc-parts.js';
import { type AgentIndex, openIndex } from './index.js';

const output = (text: string): DocPart => ({ kind: 'tool-output', text, callId: 'toolu_1' });

describe('indexedText', () => {
  it("leaves out a file listing's line numbers in both formats, but the first of each run", () => {
    expect(indexedText(output('     1→import x\n     2→\n     3→const y = 404;\n'))).toBe(
      '     1→import x\n\nconst y = 404;\n',
    );
    expect(indexedText(output('41\tfoo\n42\tbar\n43\tbaz'))).toBe('41\tfoo\nbar\nbaz');
    // Edit's reply: a sentence, then a numbered snippet of the edited file
    expect(
      indexedText(output("The file a.ts has been updated. Here's the result:\n    10→a\n    11→b\n    12→c")),
    ).toBe("The file a.ts has been updated. Here's the result:\n    10→a\nb\nc");
  });

  it('keeps numbers that only start lines (no run) and every other kind of text', () => {
    const counts = '3\tapples\n7\tpears\n12\tplums';
    expect(indexedText(output(counts))).toBe(counts);
    expect(indexedText(output('404 Not Found\n405 Method'))).toBe('404 Not Found\n405 Method');
    const numbered = '     1→a\n     2→b';
    for (const kind of ['prompt', 'assistant', 'thinking', 'tool-input'] as const) {
      expect(indexedText({ kind, text: numbered })).toBe(numbered);
    }
  });
});

describe('search over file listings', () => {
  let dir: string;
  let index: AgentIndex;
  const sessionId = nextSessionId();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-doc-parts-'));
    const b = basesOf(sessionId);
    const listing = Array.from(
      { length: 60 },
      (_, i) => `${String(i + 1).padStart(6)}→line ${i === 29 ? 'zebra' : 'x'}`,
    );
    writeLines(join(dir, 'home', 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), [
      prompt(b('u1', null, 0), 'Read the config please'),
      toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_read1', 'Read', { file_path: '/home/user/proj/demo/config.ts' }),
      toolResult(b('r1', 'a1', 2), 'toolu_read1', listing.join('\n'), false),
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(dir, 'home')]);
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the words of a listing, with the snippet as the transcript has it, but not its line numbers', async () => {
    const hits = await index.search('zebra');
    expect(hits.map((h) => [h.sessionId, h.kind, h.tool])).toEqual([[sessionId, 'tool-output', 'Read']]);
    expect(hits[0]?.snippet).toContain('30→line');
    expect(await index.search('30')).toEqual([]);
    expect(await index.search('59')).toEqual([]);
    // the first line's number stays: a listing from line 1 is still found by it
    expect((await index.search('1')).map((h) => h.kind)).toEqual(['tool-output']);
  });
});
