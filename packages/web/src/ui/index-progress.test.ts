import { describe, expect, it } from 'vitest';
import type { IndexStatus } from '../data/types';
import { indexProgressView } from './index-progress';

const start = Date.parse('2026-01-01T00:00:00Z');
const status = (over: Partial<IndexStatus>): IndexStatus => ({
  state: 'indexing',
  filesDone: 0,
  filesTotal: 0,
  bytesDone: 0,
  bytesTotal: 0,
  startedAt: new Date(start).toISOString(),
  finishedAt: null,
  error: null,
  ...over,
});

describe('indexProgressView', () => {
  it('says it is still looking before the files are known', () => {
    expect(indexProgressView(status({}), start + 5000)).toEqual({
      heading: 'Indexing your transcripts',
      meanwhile: 'Sessions appear as they are read, newest first.',
      share: 0,
      count: 'Looking for transcripts…',
      bytes: '',
      left: '',
    });
  });

  it('fills by bytes and tells the time left at the rate so far', () => {
    const mib = 1024 * 1024;
    const view = indexProgressView(
      status({ filesDone: 1200, filesTotal: 4726, bytesDone: 100 * mib, bytesTotal: 400 * mib }),
      start + 20_000,
    );
    expect(view).toMatchObject({
      share: 0.25,
      count: '1,200 of 4,726 files',
      bytes: '100.0 MiB of 400.0 MiB',
      left: 'about 1 min left',
    });
  });

  it('falls back to files when no file has bytes, and gives no estimate too early', () => {
    const view = indexProgressView(status({ filesDone: 1, filesTotal: 4 }), start + 400);
    expect(view.share).toBe(0.25);
    expect(view.left).toBe('');
  });

  it("names another process's rebuild, with its counts (an `index --rebuild` beside `serve`)", () => {
    const view = indexProgressView(status({ filesDone: 3, filesTotal: 12, elsewhere: true }), start + 5000);
    expect([view.heading, view.meanwhile, view.count, view.share]).toEqual([
      'Another AgentDash process is rebuilding the index',
      'Pages show what it has read so far, and fill in as it goes.',
      '3 of 12 files',
      0.25,
    ]);
  });
});
