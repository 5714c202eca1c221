import { AmbiguousSessionError, IndexBusyError, IndexUnavailableError, UnknownSessionError } from '@agentdash/index';
import { describe, expect, it } from 'vitest';
import { HttpError, toHttpError } from './http-error.js';

describe('toHttpError', () => {
  it('maps each operational error by its code; 404 only for what is not there', () => {
    const answers = [
      new UnknownSessionError('abc'),
      new AmbiguousSessionError('a', ['a1', 'a2']),
      new IndexBusyError('/db', 5000),
      new IndexUnavailableError('/db', 'read-only'),
    ].map((error) => [error.code, toHttpError(error)?.status]);
    expect(answers).toEqual([
      ['UNKNOWN_SESSION', 404],
      ['AMBIGUOUS_SESSION', 409],
      ['INDEX_BUSY', 503],
      ['INDEX_UNAVAILABLE', 503],
    ]);
    // the sessions an ambiguous reference names, for the answer to link to
    expect(toHttpError(new AmbiguousSessionError('a', ['a1', 'a2']))?.candidates).toEqual(['a1', 'a2']);
  });

  it("answers SQLite's word of a damaged index file with a 503 that says what mends it, not a 500", () => {
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    for (const error of [corrupt, { code: 'SQLITE_NOTADB', message: 'file is not a database' }]) {
      const http = toHttpError(error);
      expect([http?.status, http?.code]).toEqual([503, 'INDEX_DAMAGED']);
      expect(http?.message).toMatch(
        /^the index database is damaged \(.+\): stop agentdash serve, then `agentdash index --rebuild`/,
      );
    }
  });

  it('keeps the code of an error that crossed a worker (a plain object), and leaves bugs to the 500', () => {
    expect(toHttpError({ code: 'INDEX_BUSY', message: 'x' })?.status).toBe(503);
    expect(toHttpError(new TypeError('bug'))).toBeUndefined();
    expect(toHttpError({ code: 'SQLITE_FULL' })).toBeUndefined();
    const crossed = { code: 'AMBIGUOUS_SESSION', message: 'x', candidates: ['a1', 'a2'] };
    expect(toHttpError(crossed)?.candidates).toEqual(['a1', 'a2']);
    const own = new HttpError(400, 'bad');
    expect(toHttpError(own)).toBe(own);
  });
});
