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
