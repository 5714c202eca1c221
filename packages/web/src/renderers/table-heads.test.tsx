import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeLines, Hunks, SimpleDiff } from './common';

/** Each table's header names, and the cell count of each body row that is not a hunk's heading. */
function tablesOf(element: ReactElement): { heads: string[]; rows: number[] }[] {
  const html = renderToStaticMarkup(element);
  return [...html.matchAll(/<table>([\s\S]*?)<\/table>/g)].map(([, table = '']) => ({
    heads: [...table.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1] ?? ''),
    rows: [...(table.split('<tbody>')[1] ?? '').matchAll(/<tr(?: class="([^"]*)")?>([\s\S]*?)<\/tr>/g)]
      .filter((m) => m[1] !== 'hunk')
      .map((m) => (m[2] ?? '').match(/<td/g)?.length ?? 0),
  }));
}

describe('the columns of a diff and of a file read have headers a screen reader says', () => {
  it.each([
    [
      'a hunk with line numbers',
      <Hunks
        key="h"
        patch={[{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 2, lines: [' keep', '-old', '+new'] }]}
      />,
      ['Old line', 'New line', 'Change', 'Text'],
    ],
    ['a diff of two texts', <SimpleDiff key="s" oldText={'a\nb'} newText="c" />, ['Change', 'Text']],
    ['a file read from line 10', <CodeLines key="c" text={'x\ny\n'} start={10} />, ['Line', 'Text']],
  ])('%s', (_what, element, names) => {
    const [table, ...more] = tablesOf(element);
    expect(more).toEqual([]);
    expect(table?.heads).toEqual(names);
    // one header per column of every row
    expect(new Set(table?.rows)).toEqual(new Set([names.length]));
  });
});
