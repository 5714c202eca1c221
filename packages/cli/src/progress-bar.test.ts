import { describe, expect, it } from 'vitest';
import { renderProgressBar, timeLeftMs } from './progress-bar.js';

const at = (done: number, bytesDone: number) => ({
  done,
  total: 40,
  file: '',
  filesDone: done,
  filesTotal: 40,
  bytesDone,
  bytesTotal: 4 * 1024 * 1024,
});

describe('renderProgressBar', () => {
  it('fills by bytes, counts files and estimates the time left from the rate so far', () => {
    expect(renderProgressBar(at(10, 1024 * 1024), 2000, 20)).toMatchInlineSnapshot(
      `"indexing [#####...............] 10/40 files · 1.0 MiB of 4.0 MiB · 6s left"`,
    );
    expect(renderProgressBar(at(40, 4 * 1024 * 1024), 9000, 10)).toMatchInlineSnapshot(
      `"indexing [##########] 40/40 files · 4.0 MiB of 4.0 MiB"`,
    );
  });

  it('gives no estimate before anything was read or too early to tell', () => {
    expect(timeLeftMs(at(0, 0), 5000)).toBeUndefined();
    expect(timeLeftMs(at(1, 1024), 100)).toBeUndefined();
    expect(timeLeftMs(at(20, 2 * 1024 * 1024), 3 * 60_000)).toBe(3 * 60_000);
    expect(renderProgressBar(at(20, 2 * 1024 * 1024), 3 * 60_000, 4)).toMatchInlineSnapshot(
      `"indexing [##..] 20/40 files · 2.0 MiB of 4.0 MiB · 3m 00s left"`,
    );
  });

  it('falls back to files when no file has bytes yet', () => {
    expect(
      renderProgressBar(
        { done: 1, total: 2, file: '', filesDone: 1, filesTotal: 2, bytesDone: 0, bytesTotal: 0 },
        0,
        4,
      ),
    ).toMatchInlineSnapshot(`"indexing [##..] 1/2 files · 0 B of 0 B"`);
  });
});
