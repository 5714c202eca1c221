import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { parseNumbered, ReadRenderer } from './files';
import { callOf } from './test-call';

/** A Read as typed: file lines (Claude Code 2.1.330 wrote 2 of 2 for a 1-line file; typing mends it to 1 of 1). */
const read = (content: string, startLine: number, numLines: number, totalLines: number) =>
  callOf(
    'Read',
    { file_path: '/p/bug.js' },
    content,
    {
      kind: 'read',
      data: { variant: 'text', filePath: '/p/bug.js', content, startLine, numLines, totalLines },
    } as unknown as TypedResult,
    'read',
  );

describe('a Read', () => {
  it('says as many lines as it draws', () => {
    const html = renderToStaticMarkup(<ReadRenderer call={read('for (;;) {}\n', 1, 1, 1)} />);
    expect(html).toContain('lines 1–1 of 1');
    expect(html.match(/<td class="ln">/g)).toHaveLength(1);
  });

  it('of part of a file keeps its place in the file', () => {
    const html = renderToStaticMarkup(<ReadRenderer call={read('l10\nl11\nl12', 10, 3, 31)} />);
    expect(html).toContain('lines 10–12 of 31');
    expect(html.match(/<td class="ln">/g)).toHaveLength(3);
  });

  it("that read nothing says why, in the client's words: an offset past the end is no empty file", () => {
    const past = (content: string) =>
      callOf(
        'Read',
        { file_path: '/p/notes.txt', offset: 500 },
        content,
        {
          kind: 'read',
          data: { variant: 'text', filePath: '/p/notes.txt', content: '', startLine: 500, numLines: 0 },
        } as unknown as TypedResult,
        'read',
        { filePath: '/p/notes.txt', offset: 500 },
      );
    const html = renderToStaticMarkup(
      <ReadRenderer
        call={past(
          '<system-reminder>Warning: the file exists but is shorter than the provided offset (500). The file has 31 lines.</system-reminder>',
        )}
      />,
    );
    expect(html).toContain('nothing read · offset 500, limit ∞');
    expect(html).toMatch(
      /data-testid="read-nothing"[^>]*>the file exists but is shorter than the provided offset \(500\)\. The file has 31 lines\.</,
    );
    expect(html).not.toContain('empty file');
    expect(html).not.toContain('lines 500');
    // no word from the client: an empty file
    expect(renderToStaticMarkup(<ReadRenderer call={past('')} />)).toContain('(empty file)');
  });

  it("of Copilot CLI's view numbers each line once: its `N. ` prefixes are line numbers", () => {
    const view = callOf(
      'view',
      { path: '/p/a.json' },
      '1. {\n2.   "a": 1\n3. }',
      {
        kind: 'read',
        data: { variant: 'text', filePath: '/p/a.json' },
      } as unknown as TypedResult,
      'read',
    );
    const html = renderToStaticMarkup(<ReadRenderer call={view} />);
    expect([...html.matchAll(/<td class="ln">(\d+)<\/td>/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
    expect(html).not.toContain('1. {');
    // a list whose numbers skip is text as written, every line of it
    expect(parseNumbered('1. First\n2. Second\n4. Fourth')).toBeUndefined();
  });
});
