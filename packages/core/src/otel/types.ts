/**
 * Neutral records for OpenTelemetry (OTLP) exports: what an agent's own telemetry says, whatever the encoding it was
 * sent in (OTLP/JSON or OTLP/protobuf). Browser-safe: types and pure helpers only.
 */

/** An attribute or body value. `int64` values beyond 2^53 are kept as their decimal text; bytes as hex. */
export type OtelValue = string | number | boolean | null | readonly OtelValue[] | { readonly [key: string]: OtelValue };

export type OtelAttributes = Readonly<Record<string, OtelValue>>;

export const otelSignals = ['logs', 'traces', 'metrics'] as const;
export type OtelSignal = (typeof otelSignals)[number];

/** What every record carries: the exporting process and the instrumentation scope. */
export interface OtelOrigin {
  readonly resource: OtelAttributes;
  readonly scope: string;
}

/** A log record (Claude Code: one `claude_code.<name>` event, `event.name` in its attributes). */
export interface OtelEvent extends OtelOrigin {
  readonly kind: 'event';
  /** `event.name`, else the log record's `eventName`, else its string body. */
  readonly name: string;
  /** Nanoseconds since the epoch as decimal text (exact), and the same in milliseconds. */
  readonly timeUnixNano: string;
  readonly timeMs: number;
  readonly severity: string;
  readonly body: OtelValue;
  readonly attributes: OtelAttributes;
  readonly traceId: string;
  readonly spanId: string;
}

/** A finished span with its exact start and end. */
export interface OtelSpan extends OtelOrigin {
  readonly kind: 'span';
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly startUnixNano: string;
  readonly endUnixNano: string;
  readonly startMs: number;
  readonly endMs: number;
  /**
   * `end - start`, computed from the nanosecond values (exact to the microsecond); null when the end is before the
   * start (a clock stepped back, an end never set): no time at all rather than a negative one.
   */
  readonly durationMs: number | null;
  readonly attributes: OtelAttributes;
  /** 0 unset, 1 ok, 2 error (OTLP `Status.code`). */
  readonly statusCode: number;
  readonly statusMessage: string;
}

/** One number data point of a sum or gauge metric. */
export interface OtelMetricPoint extends OtelOrigin {
  readonly kind: 'metric';
  readonly name: string;
  readonly unit: string;
  readonly type: 'sum' | 'gauge';
  /** 1 delta, 2 cumulative, 0 unspecified (gauges). */
  readonly temporality: number;
  readonly startUnixNano: string;
  readonly timeUnixNano: string;
  readonly timeMs: number;
  readonly value: number;
  readonly attributes: OtelAttributes;
}

/** Anything not modelled (histograms, summaries, a record without the fields we read): kept raw, never dropped. */
export interface OtelUnknown extends OtelOrigin {
  readonly kind: 'unknown';
  readonly signal: OtelSignal;
  readonly reason: string;
  readonly raw: OtelValue;
}

export type OtelRecord = OtelEvent | OtelSpan | OtelMetricPoint | OtelUnknown;

export const otelIssueCodes = [
  'unsupported_content_type',
  'unsupported_encoding',
  'bad_compression',
  'invalid_json',
  'invalid_protobuf',
  'not_otlp',
  'too_deep',
  'too_large',
  'schema_mismatch',
] as const;
export type OtelIssueCode = (typeof otelIssueCodes)[number];

export interface OtelIssue {
  readonly code: OtelIssueCode;
  readonly message: string;
}

/** What decoding one export request gives: its records, and what was wrong with it (possibly both). */
export interface OtelDecoded {
  readonly signal: OtelSignal;
  readonly records: readonly OtelRecord[];
  readonly issues: readonly OtelIssue[];
  /** False when the body could not be read as an OTLP request at all (records is then empty). */
  readonly ok: boolean;
}

/** A string attribute, or '' (numbers and booleans written as text, as some signals send them). */
export function attrText(attributes: OtelAttributes, key: string): string {
  const value = attributes[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A numeric attribute sent as a number or as decimal text (`"1234"` in events, `1234` in spans); else null. */
export function attrNumber(attributes: OtelAttributes, key: string): number | null {
  const value = attributes[key];
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * A duration attribute (milliseconds): `attrNumber`'s, and null when negative. A client's clock stepping back or a
 * hand-made payload would otherwise take time off a session's measured model or tool time.
 */
export function attrDuration(attributes: OtelAttributes, key: string): number | null {
  const n = attrNumber(attributes, key);
  return n !== null && n >= 0 ? n : null;
}

/** A boolean attribute sent as a boolean or as `"true"`/`"false"`; else null. */
export function attrBool(attributes: OtelAttributes, key: string): boolean | null {
  const value = attributes[key];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}
