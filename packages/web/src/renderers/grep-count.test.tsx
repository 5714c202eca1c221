/**
 * A content-mode Grep says no "0 files" over matching lines: Claude Code writes `numFiles: 0` in content mode, and the
 * renderer repeated it above lines of three files (review in Chromium over ../shared, session 8780069f).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { GrepRenderer } from './search';
import { callOf } from './test-call';

const grep = (mode: string, content: string, numFiles: number) =>
  callOf(
    'Grep',
    { pattern: 'todo', output_mode: mode },
    content,
    {
      kind: 'grep',
      data: { mode, numFiles, filenames: [], content, numLines: content.split('\n').length },
    } as unknown as TypedResult,
    'grep',
  );

describe('a Grep in content mode', () => {
  it('counts its lines, not "0 files", when Claude Code counted no files', () => {
    const html = renderToStaticMarkup(
      <GrepRenderer call={grep('content', 'a.ts:1:todo\nb.ts:2:todo\nc.ts:3:todo', 0)} />,
    );
    expect(html).not.toContain('0 files');
    expect(html).toContain('3 lines');
  });

  it('keeps a count Claude Code gave', () => {
    const html = renderToStaticMarkup(<GrepRenderer call={grep('files_with_matches', '', 2)} />);
    expect(html).toContain('2 files');
  });
});
