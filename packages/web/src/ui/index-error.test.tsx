import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { IndexStatus } from '../data/types';
import { IndexError, IndexProgress } from './IndexProgress';

const status = (error: string | null): IndexStatus => ({
  state: 'ready',
  filesDone: 3,
  filesTotal: 3,
  bytesDone: 10,
  bytesTotal: 10,
  startedAt: '2026-12-05T08:00:00.000Z',
  finishedAt: '2026-12-05T08:00:01.000Z',
  error,
});

describe('the notice of an index that could not be brought up to date', () => {
  it('says why, escaped, as an alert; nothing while none failed or before the status is known', () => {
    const html = renderToStaticMarkup(<IndexError status={status('the index <x> was rebuilt by another version.')} />);
    expect(html).toMatch(/role="alert"/);
    expect(html).toMatch(
      /not up to date<\/strong>: the index &lt;x&gt; was rebuilt by another version\. What this page shows/,
    );
    expect(renderToStaticMarkup(<IndexError status={status(null)} />)).toBe('');
    expect(renderToStaticMarkup(<IndexError status={undefined} />)).toBe('');
  });
});

describe('the progress of a first index build', () => {
  it('announces its stage, not its count and time left, which change every second', () => {
    const indexing: IndexStatus = { ...status(null), state: 'indexing', filesDone: 1, finishedAt: null };
    const html = renderToStaticMarkup(<IndexProgress status={indexing} />);
    expect(html).toMatch(/data-testid="index-progress-count"/);
    // one live region, the heading alone (the whole bar was one: re-read at every tick)
    expect(html.match(/role="status"|aria-live/g)).toEqual(['role="status"']);
    expect(html).toMatch(/<strong role="status">[^<]+<\/strong>/);
  });
});
