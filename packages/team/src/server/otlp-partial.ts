/**
 * An OTLP/HTTP answer saying some records of a request were not stored (the spec's partial success): the count, in
 * the signal's field (`rejectedLogRecords`, `rejectedSpans`, `rejectedDataPoints`), and why. An exporter logs it; it
 * does not send the request again (the answer is a 200).
 */
import type { OtelSignal } from '@agentdash/core';

const REJECTED: Record<OtelSignal, string> = {
  logs: 'rejectedLogRecords',
  traces: 'rejectedSpans',
  metrics: 'rejectedDataPoints',
};

/** OTLP/JSON (proto3's JSON: an int64 is a decimal string). */
export function partialSuccessJson(signal: OtelSignal, rejected: number, message: string) {
  return { partialSuccess: { [REJECTED[signal]]: String(rejected), errorMessage: message } };
}

const varint = (n: bigint): number[] => {
  const out: number[] = [];
  let v = n;
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return out;
};
/** A length-delimited field `field` holding `bytes`. */
const delimited = (field: number, bytes: readonly number[]) => [
  (field << 3) | 2,
  ...varint(BigInt(bytes.length)),
  ...bytes,
];

/**
 * OTLP/protobuf: `Export*ServiceResponse { partial_success = 1 }`, whose `Export*PartialSuccess` is the same for every
 * signal: `rejected_* = 1` (int64, a varint) and `error_message = 2`.
 */
export function partialSuccessProtobuf(rejected: number, message: string): Uint8Array<ArrayBuffer> {
  const inner = [(1 << 3) | 0, ...varint(BigInt(rejected)), ...delimited(2, [...Buffer.from(message, 'utf8')])];
  return new Uint8Array(delimited(1, inner));
}

/** What a partial success of records of forgotten sessions says (`dropped` of them: more than none). */
export const droppedWhy = (dropped: number) =>
  `${dropped} ${dropped === 1 ? 'record' : 'records'} of sessions forgotten on this team server (push --forget) ${dropped === 1 ? 'is' : 'are'} dropped`;

/**
 * The server's log of dropped records, one line per device at most every `everyMs` (an agent still running exports
 * every few seconds): the first drop at once, then those of the minute past together with their count.
 */
export function droppedLog(log: (line: string) => void = console.error, everyMs = 60_000, now = Date.now) {
  const last = new Map<string, { at: number; pending: number }>();
  return (device: string, dropped: number): void => {
    if (dropped === 0) return;
    const seen = last.get(device);
    if (seen !== undefined && now() - seen.at < everyMs) {
      seen.pending += dropped;
      return;
    }
    const since = seen === undefined ? '' : ' (since the last such line)';
    log(`agentdash team server: ${device}: ${droppedWhy(dropped + (seen?.pending ?? 0))}${since}`);
    last.set(device, { at: now(), pending: 0 });
  };
}
