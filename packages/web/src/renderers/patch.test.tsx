import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { PatchRenderer } from './kinds';
import { callOf } from './test-call';

const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', ' keep', '-old', '+new', '*** End Patch'].join(
  '\n',
);
const typedWith = (hunk: Record<string, unknown>) =>
  ({
    kind: 'patch',
    tool: 'apply_patch',
    data: {
      files: [{ path: 'src/a.ts', operation: 'update', hunks: [hunk], linesAdded: 1, linesRemoved: 1 }],
      output: 'Success. Updated the following files:\nM src/a.ts',
    },
  }) as unknown as TypedResult;
const lineNumbers = (html: string) => [...html.matchAll(/<td class="ln">([^<]*)<\/td>/g)].map((m) => m[1]);

describe('Codex apply_patch', () => {
  it('shows the changes once, as diffs, not also the raw patch text of the input', () => {
    const call = callOf(
      'apply_patch',
      { input: patch },
      'Success.',
      typedWith({ lines: [' keep', '-old', '+new'] }),
      'patch',
    );
    const html = renderToStaticMarkup(<PatchRenderer call={call} />);
    expect(html).not.toContain('*** Begin Patch');
    expect(html.match(/old/g)).toHaveLength(1);
  });

  it('numbers no line of a hunk written without line numbers', () => {
    const call = callOf(
      'apply_patch',
      { input: patch },
      'Success.',
      typedWith({ lines: [' keep', '-old', '+new'] }),
      'patch',
    );
    expect(lineNumbers(renderToStaticMarkup(<PatchRenderer call={call} />))).toEqual(['', '', '', '', '', '']);
  });

  it('numbers the lines of a hunk the tool applied from its header', () => {
    const hunk = { oldStart: 18, oldLines: 2, newStart: 18, newLines: 2, lines: [' keep', '-old', '+new'] };
    const call = callOf('apply_patch', { input: patch }, 'Success.', typedWith(hunk), 'patch');
    const html = renderToStaticMarkup(<PatchRenderer call={call} />);
    expect(html).toContain('@@ -18,2 +18,2 @@');
    expect(lineNumbers(html)).toEqual(['18', '18', '19', '', '', '19']);
  });
});
