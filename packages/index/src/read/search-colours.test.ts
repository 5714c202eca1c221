/**
 * Search reads a tool's output as the timeline shows it: terminal colours and other control sequences are no part of
 * a word. Indexed raw, `ESC[1mWould` was one word, `1mWould` (../shared/wild claude-code-viewer-1: the phrase "Would
 * you like your code inside" found nothing; agentcmd-1: vitest's red `AssertionError` missed), and snippets showed
 * the sequences; a text's own U+0001/U+0002 read as the snippet's highlight marks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';
import { HIGHLIGHT_END, HIGHLIGHT_START } from '../types.js';

const SESSION = '5ea7c4a0-0000-4000-8000-0000000000c1';
let dir: string;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-search-colours-'));
  const home = join(dir, 'claude-home');
  const at = basesOf(SESSION);
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), [
    prompt(at('u1', null, 1), 'Create the app.'),
    toolUse(at('a1', 'u1', 2), 'msg_1', 'toolu_1', 'Bash', { command: 'npx create-next-app' }),
    toolResult(
      at('r1', 'a1', 3),
      'toolu_1',
      '\u001b[1mWould you like your code inside a `src/` directory?\u001b[22m \u001b[90m›\u001b[39m No\n' +
        '\u001b[31m\u001b[1mAssertionError\u001b[22m\u001b[39m: expected 2 to be 3\npondering thinkword \u0001ctl\u0002\n' +
        'alpha.ts\u0000beta.ts\u0000section one\fpenguinpage',
      false,
    ),
  ]);
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([home]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const marked = (snippet: string) => snippet.replaceAll(HIGHLIGHT_START, '[').replaceAll(HIGHLIGHT_END, ']');

describe('search over coloured output', () => {
  it('finds the words a colour starts, as phrases too', async () => {
    expect((await index.search('"Would you like your code inside"')).map((h) => h.sessionId)).toEqual([SESSION]);
    expect((await index.search('AssertionError')).map((h) => h.sessionId)).toEqual([SESSION]);
  });

  // A review of the first fix: control characters taken out joined the words they stood between.
  it('finds words other control characters stand between (NUL, form feed)', async () => {
    for (const word of ['penguinpage', 'beta']) {
      expect((await index.search(word)).map((h) => h.sessionId)).toEqual([SESSION]);
    }
  });

  it('shows snippets without the sequences, marking only the match', async () => {
    const [hit] = await index.search('AssertionError');
    const snippet = hit === undefined ? '' : marked(hit.snippet);
    expect([snippet.includes('\u001b'), /\[\d+m/.test(snippet), snippet.includes('AssertionError')]).toEqual([
      false,
      false,
      true,
    ]);
    const [mark] = await index.search('thinkword');
    const forged = mark === undefined ? '' : marked(mark.snippet);
    expect([forged.includes('[thinkword]'), forged.includes('[ctl]')]).toEqual([true, false]);
  });
});

describe('a query repeating its words', () => {
  // Before: each repeat was one more phrase for FTS5 to rank (the time grew past any bound with the repeats).
  it('asks for each word once', async () => {
    const { toFtsQuery } = await import('./search.js');
    expect(toFtsQuery(`${'a '.repeat(3000)}"code inside" "code inside" b*`)).toBe('"a" "code inside" "b"*');
    expect((await index.search(`${'like '.repeat(3000)}Would`)).map((h) => h.sessionId)).toEqual([SESSION]);
  });
});
