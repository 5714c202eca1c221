import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FileActivity } from '../data/types';
import { MoreCalls } from './FilesPage';

const file = (path: string, calls: number, linked: number) =>
  ({ path, calls, callIds: Array.from({ length: linked }, (_, i) => `toolu_${i}`) }) as unknown as FileActivity;
const hrefOf = (html: string) => /href="([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

describe('the calls of a file read or changed more often than the answer links', () => {
  it('says how many more and finds them in the timeline by the path the project knows it by', () => {
    const html = renderToStaticMarkup(
      <MoreCalls id="s1" file={file('/home/u/p/src/a.ts', 73, 50)} projectPath="/home/u/p" />,
    );
    expect(html).toContain('and 23 more calls');
    expect(hrefOf(html)).toBe('#/s/s1?find=src%2Fa.ts');
  });

  it('finds a file outside the project by its whole path', () => {
    const html = renderToStaticMarkup(<MoreCalls id="s1" file={file('/etc/hosts', 51, 50)} projectPath="/home/u/p" />);
    expect(html).toContain('and 1 more call:');
    expect(hrefOf(html)).toBe('#/s/s1?find=%2Fetc%2Fhosts');
  });

  it('says nothing when every call is linked', () => {
    expect(renderToStaticMarkup(<MoreCalls id="s1" file={file('/a', 50, 50)} projectPath={undefined} />)).toBe('');
  });
});
