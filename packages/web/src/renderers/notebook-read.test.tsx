import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { ReadRenderer } from './files';
import { callOf } from './test-call';

/** A Read of a notebook as Claude Code 2.0.76 types it (corpus, files scenario), with `outputs` for its code cell. */
const notebookRead = (outputs: unknown[]) => {
  const filePath = '/home/user/proj/files/demo.ipynb';
  const typed = {
    kind: 'read',
    tool: 'Read',
    data: {
      variant: 'notebook',
      filePath,
      cells: [
        { cellId: 'intro', cellType: 'markdown', source: '# Demo notebook\nUsed by the recorder.' },
        {
          cellId: 'calc',
          cellType: 'code',
          source: 'x = 21\nprint(x * 2)',
          language: 'python',
          executionCount: 1,
          outputs,
        },
      ],
    },
  } as unknown as TypedResult;
  return callOf('Read', { file_path: filePath }, '', typed, 'read', { filePath });
};
const outputsOf = (html: string) =>
  [...html.matchAll(/data-testid="cell-output"[^>]*>([\s\S]*?)<\/pre>/g)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, '').replaceAll('<!-- -->', ''),
  );

describe('a notebook read', () => {
  // Before: each cell's source only; what the cells printed, the model saw and the page did not show.
  it('shows each cell’s outputs under its source: streams, results and errors', () => {
    const html = renderToStaticMarkup(
      <ReadRenderer
        call={notebookRead([
          { output_type: 'stream', text: '42\n' },
          { output_type: 'execute_result', text: ['a\n', 'b'] },
          {
            output_type: 'error',
            ename: 'ZeroDivisionError',
            evalue: 'division by zero',
            traceback: ['\u001b[31mTraceback\u001b[0m', 'Cell In[1], line 1'],
          },
        ])}
      />,
    );
    expect(outputsOf(html)).toEqual([
      '42',
      'a\nb',
      'ZeroDivisionError: division by zero\nTraceback\nCell In[1], line 1',
    ]);
  });

  it('shows an output image, and any other output as its raw JSON', () => {
    const png = 'iVBORw0KGgo=';
    const html = renderToStaticMarkup(
      <ReadRenderer
        call={notebookRead([
          { output_type: 'display_data', image: { image_data: png, media_type: 'image/png' } },
          { output_type: 'widget', data: { n: 1 } },
        ])}
      />,
    );
    expect(html).toContain(`src="data:image/png;base64,${png}"`);
    expect(html).toContain('&quot;output_type&quot;: &quot;widget&quot;');
  });
});
