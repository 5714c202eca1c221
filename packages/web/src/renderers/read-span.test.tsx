import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { ReadRenderer } from './files';
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
});
