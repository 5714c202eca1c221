import { describe, expect, it } from 'vitest';
import { decodeLine } from './decode-record.js';

const loc = { file: 'x.jsonl', line: 3, offset: 0 };
const note = (fields: Record<string, unknown>) => {
  const decoded = decodeLine(JSON.stringify({ type: 'system', subtype: 'api_error', level: 'error', ...fields }), loc);
  return decoded.value?.kind === 'system' ? decoded.value.content : 'not a system record';
};

describe("an api_error note's words (Claude Code writes no content for it)", () => {
  it('says what failed and the retry, as 2.1 clients write it (the corpus and the wild set)', () => {
    const error = {
      message: '500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
      status: 500,
      formatted: '500 Internal server error',
    };
    expect(note({ error, retryInMs: 622, retryAttempt: 1, maxRetries: 1 })).toBe(
      '500 Internal server error · retry 1 of 1 in 0.6 s',
    );
    const reset = { message: 'Connection error.', formatted: 'Unable to connect to API (ECONNRESET)' };
    expect(note({ error: reset, retryInMs: 601.9, retryAttempt: 1, maxRetries: 10 })).toBe(
      'Unable to connect to API (ECONNRESET) · retry 1 of 10 in 0.6 s',
    );
  });

  it("reads older clients' error (the API's own body) and a message without a formatted line", () => {
    const body = { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } };
    expect(note({ error: { status: 401, headers: {}, error: body, type: 'authentication_error' } })).toBe(
      '401 authentication_error invalid x-api-key',
    );
    expect(note({ error: { message: 'Request timed out.' }, retryAttempt: 2 })).toBe('Request timed out. · retry 2');
  });

  it('keeps content the record has, and says nothing it cannot read', () => {
    expect(note({ content: 'As written', error: { formatted: 'other' } })).toBe('As written');
    expect(note({ error: { status: 0, headers: {}, type: null }, retryAttempt: 0 })).toBeUndefined();
  });
});
