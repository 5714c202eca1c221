import { describe, expect, it } from 'vitest';
import { droppedLog, partialSuccessJson, partialSuccessProtobuf } from './otlp-partial.js';

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

  it("logs a device's dropped records once a minute at most, with the count of the minute past", () => {
    const lines: string[] = [];
    let t = 0;
    const log = droppedLog(
      (line) => lines.push(line),
      60_000,
      () => t,
    );
    // an agent still running exports every 5 s for 3 minutes; another device once
    for (; t < 180_000; t += 5_000) log('ann/laptop', 2);
    log('bob/desk', 1);
    log('bob/desk', 0);
    const why = 'of sessions forgotten on this team server (push --forget)';
    expect(lines).toEqual([
      `agentdash team server: ann/laptop: 2 records ${why} are dropped`,
      `agentdash team server: ann/laptop: 24 records ${why} are dropped (since the last such line)`,
      `agentdash team server: ann/laptop: 24 records ${why} are dropped (since the last such line)`,
      `agentdash team server: bob/desk: 1 record ${why} is dropped`,
    ]);
  });
});
