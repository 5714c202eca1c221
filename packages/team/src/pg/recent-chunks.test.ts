import { describe, expect, it } from 'vitest';
import { forgetChunks, RECENT_CHUNK_BYTES, recentChunk, rememberChunk } from './recent-chunks.js';

const name = (n: number) => n.toString(16).padStart(64, '0');

describe('chunks received lately', () => {
  it('keeps a copy of each, the oldest out past the limit, and none once forgotten', () => {
    const body = Buffer.alloc(1024, 7);
    rememberChunk(name(1), body.subarray(0, 100));
    body.fill(9);
    // a copy: the request's body may be reused or freed
    expect(recentChunk(name(1))).toEqual(Buffer.alloc(100, 7));
    const size = RECENT_CHUNK_BYTES / 16;
    for (let n = 2; n <= 18; n += 1) rememberChunk(name(n), Buffer.alloc(size, n));
    // 17 of a sixteenth each: the first two out
    expect([recentChunk(name(1)), recentChunk(name(2))]).toEqual([undefined, undefined]);
    expect(recentChunk(name(18))?.[0]).toBe(18);
    forgetChunks([name(18)]);
    expect(recentChunk(name(18))).toBeUndefined();
    // too large to keep (an eighth of the limit or more): not kept
    rememberChunk(name(19), Buffer.alloc(RECENT_CHUNK_BYTES / 4));
    expect(recentChunk(name(19))).toBeUndefined();
  });
});
