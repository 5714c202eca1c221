import { describe, expect, it } from 'vitest';
import { partialSuccessJson, partialSuccessProtobuf } from './otlp-partial.js';

describe('an OTLP partial success', () => {
  it("names each signal's count, an int64 as a decimal string in JSON", () => {
    expect(partialSuccessJson('traces', 3, 'why')).toEqual({
      partialSuccess: { rejectedSpans: '3', errorMessage: 'why' },
    });
    expect(Object.keys(partialSuccessJson('metrics', 1, '').partialSuccess)).toEqual([
      'rejectedDataPoints',
      'errorMessage',
    ]);
  });

  it('writes counts and lengths past 127 as varints of several bytes', () => {
    const message = 'm'.repeat(200);
    const bytes = [...partialSuccessProtobuf(300, message)];
    // 300 = 0b10_0101100: 0xac 0x02; the message's 200 bytes: 0xc8 0x01; the inner message's 206 (tag, 2, tag, 2, 200): 0xce 0x01
    expect(bytes.slice(0, 8)).toEqual([0x0a, 0xce, 0x01, 0x08, 0xac, 0x02, 0x12, 0xc8]);
    expect(bytes.slice(8, 9)).toEqual([0x01]);
    expect(Buffer.from(bytes.slice(9)).toString()).toBe(message);
  });
});
