/**
 * The OTLP request shape (as OTLP/JSON writes it, and as `protobuf.ts` rebuilds it from protobuf) → neutral records.
 * Reads both spellings the encodings use for one value: 64-bit integers as JSON numbers or decimal text, field names
 * in lowerCamelCase or snake_case. What it cannot read is kept as an `unknown` record, never dropped.
 */
import type {
  OtelAttributes,
  OtelIssue,
  OtelMetricPoint,
  OtelOrigin,
  OtelRecord,
  OtelSignal,
  OtelSpan,
  OtelValue,
} from './types.js';

type Obj = Readonly<Record<string, unknown>>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A field by its lowerCamelCase name, else its snake_case one (the proto name some exporters write). */
function field(o: Obj, name: string): unknown {
  return o[name] ?? o[snake(name)];
}

function list(o: Obj, name: string): readonly unknown[] {
  const value = field(o, name);
  return Array.isArray(value) ? value : [];
}

function text(o: Obj, name: string): string {
  const value = field(o, name);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A 64-bit integer written as a JSON number or as decimal text → decimal text ('0' when absent or invalid). */
function nanoText(o: Obj, name: string): string {
  const value = field(o, name);
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value)).toString();
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value).toString();
  return '0';
}

/** Nanoseconds (decimal text) → milliseconds, exact to the microsecond. */
export function nanoToMs(nano: string): number {
  return Number(BigInt(nano) / 1000n) / 1000;
}

function intValue(value: unknown): OtelValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return typeof value === 'string' ? value : null;
}

function doubleValue(value: unknown): OtelValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value === '' || Number.isNaN(Number(value)) ? value : Number(value);
  return null;
}

/** An OTLP `AnyValue` → a plain value. A value clipped for depth arrives as text and stays text. */
export function anyValue(value: unknown): OtelValue {
  if (typeof value === 'string') return value;
  if (!isObj(value)) return null;
  if ('stringValue' in value || 'string_value' in value) return text(value, 'stringValue');
  const bool = field(value, 'boolValue');
  if (typeof bool === 'boolean') return bool;
  if (bool === 'true' || bool === 'false') return bool === 'true';
  if (field(value, 'intValue') !== undefined) return intValue(field(value, 'intValue'));
  if (field(value, 'doubleValue') !== undefined) return doubleValue(field(value, 'doubleValue'));
  const array = field(value, 'arrayValue');
  if (array !== undefined) return isObj(array) ? list(array, 'values').map(anyValue) : anyValue(array);
  const kvlist = field(value, 'kvlistValue');
  if (kvlist !== undefined) return isObj(kvlist) ? attributes(list(kvlist, 'values')) : anyValue(kvlist);
  const bytes = field(value, 'bytesValue');
  if (typeof bytes === 'string') return bytes;
  return null;
}

/** `KeyValue[]` → a record (a later key wins, as OTLP leaves duplicates undefined). */
export function attributes(pairs: readonly unknown[]): OtelAttributes {
  const out: Record<string, OtelValue> = {};
  for (const pair of pairs) {
    if (!isObj(pair) || typeof pair.key !== 'string') continue;
    out[pair.key] = anyValue(pair.value);
  }
  return out;
}

function origin(resourceOwner: Obj, scopeOwner: Obj): OtelOrigin {
  const resource = field(resourceOwner, 'resource');
  const scope = field(scopeOwner, 'scope');
  return {
    resource: isObj(resource) ? attributes(list(resource, 'attributes')) : {},
    scope: isObj(scope) ? text(scope, 'name') : '',
  };
}

function rawOf(value: unknown): OtelValue {
  return (value ?? null) as OtelValue;
}

function logRecord(at: OtelOrigin, record: unknown): OtelRecord {
  if (!isObj(record))
    return { kind: 'unknown', signal: 'logs', reason: 'log record is not an object', raw: rawOf(record), ...at };
  const attrs = attributes(list(record, 'attributes'));
  const body = anyValue(field(record, 'body'));
  const eventName = attrs['event.name'];
  const name =
    typeof eventName === 'string' && eventName !== ''
      ? eventName
      : text(record, 'eventName') || (typeof body === 'string' ? body : '');
  let timeUnixNano = nanoText(record, 'timeUnixNano');
  if (timeUnixNano === '0') timeUnixNano = nanoText(record, 'observedTimeUnixNano');
  return {
    kind: 'event',
    ...at,
    name,
    timeUnixNano,
    timeMs: nanoToMs(timeUnixNano),
    severity: text(record, 'severityText'),
    body,
    attributes: attrs,
    traceId: text(record, 'traceId'),
    spanId: text(record, 'spanId'),
  };
}

function span(at: OtelOrigin, raw: unknown): OtelRecord {
  if (!isObj(raw) || text(raw, 'spanId') === '') {
    return { kind: 'unknown', signal: 'traces', reason: 'span without a span id', raw: rawOf(raw), ...at };
  }
  const startUnixNano = nanoText(raw, 'startTimeUnixNano');
  const endUnixNano = nanoText(raw, 'endTimeUnixNano');
  const lastedNano = BigInt(endUnixNano) - BigInt(startUnixNano);
  const status = field(raw, 'status');
  const code = isObj(status) ? field(status, 'code') : 0;
  return {
    kind: 'span',
    ...at,
    name: text(raw, 'name'),
    traceId: text(raw, 'traceId'),
    spanId: text(raw, 'spanId'),
    parentSpanId: text(raw, 'parentSpanId'),
    startUnixNano,
    endUnixNano,
    startMs: nanoToMs(startUnixNano),
    endMs: nanoToMs(endUnixNano),
    durationMs: lastedNano < 0n ? null : Number(lastedNano / 1000n) / 1000,
    attributes: attributes(list(raw, 'attributes')),
    statusCode: typeof code === 'number' ? code : code === 'STATUS_CODE_ERROR' ? 2 : code === 'STATUS_CODE_OK' ? 1 : 0,
    statusMessage: isObj(status) ? text(status, 'message') : '',
  } satisfies OtelSpan;
}

function metricPoints(at: OtelOrigin, metric: unknown): OtelRecord[] {
  if (!isObj(metric))
    return [{ kind: 'unknown', signal: 'metrics', reason: 'metric is not an object', raw: rawOf(metric), ...at }];
  const sum = field(metric, 'sum');
  const gauge = field(metric, 'gauge');
  const data = isObj(sum) ? sum : isObj(gauge) ? gauge : null;
  if (data === null) {
    return [{ kind: 'unknown', signal: 'metrics', reason: 'metric type not modelled', raw: rawOf(metric), ...at }];
  }
  const temporality = field(data, 'aggregationTemporality');
  return list(data, 'dataPoints').map((point): OtelRecord => {
    if (!isObj(point))
      return { kind: 'unknown', signal: 'metrics', reason: 'data point is not an object', raw: rawOf(point), ...at };
    const asInt = intValue(field(point, 'asInt'));
    const asDouble = doubleValue(field(point, 'asDouble'));
    const value =
      typeof asInt === 'number' ? asInt : typeof asDouble === 'number' ? asDouble : Number(asInt ?? Number.NaN);
    const timeUnixNano = nanoText(point, 'timeUnixNano');
    return {
      kind: 'metric',
      ...at,
      name: text(metric, 'name'),
      unit: text(metric, 'unit'),
      type: data === sum ? 'sum' : 'gauge',
      temporality:
        typeof temporality === 'number'
          ? temporality
          : temporality === 'AGGREGATION_TEMPORALITY_DELTA'
            ? 1
            : temporality === 'AGGREGATION_TEMPORALITY_CUMULATIVE'
              ? 2
              : 0,
      startUnixNano: nanoText(point, 'startTimeUnixNano'),
      timeUnixNano,
      timeMs: nanoToMs(timeUnixNano),
      value: Number.isFinite(value) ? value : 0,
      attributes: attributes(list(point, 'attributes')),
    } satisfies OtelMetricPoint;
  });
}

const rootKeys = { logs: 'resourceLogs', traces: 'resourceSpans', metrics: 'resourceMetrics' } as const;
const scopeKeys = { logs: 'scopeLogs', traces: 'scopeSpans', metrics: 'scopeMetrics' } as const;
const recordKeys = { logs: 'logRecords', traces: 'spans', metrics: 'metrics' } as const;

/** An OTLP export request (plain shape) → its records, or an issue when it is not one for `signal`. */
export function normalizeRequest(
  signal: OtelSignal,
  request: unknown,
): { readonly records: readonly OtelRecord[]; readonly issue?: OtelIssue } {
  if (!isObj(request))
    return { records: [], issue: { code: 'not_otlp', message: 'body is not an OTLP request object' } };
  const rootKey = rootKeys[signal];
  const root = field(request, rootKey);
  if (root === undefined && Object.keys(request).length > 0) {
    return {
      records: [],
      issue: { code: 'not_otlp', message: `body has no ${rootKey}: not an OTLP ${signal} request` },
    };
  }
  if (root !== undefined && !Array.isArray(root)) {
    return { records: [], issue: { code: 'not_otlp', message: `${rootKey} is not a list` } };
  }
  const records: OtelRecord[] = [];
  // A part of another shape than OTLP's (an entry that is no object, a list that is none) is kept as it came.
  const odd = (reason: string, raw: unknown, at: OtelOrigin = { resource: {}, scope: '' }) =>
    records.push({ kind: 'unknown', signal, reason, raw: rawOf(raw), ...at });
  const scopeKey = scopeKeys[signal];
  const recordsKey = recordKeys[signal];
  for (const owner of list(request, rootKey)) {
    if (!isObj(owner)) {
      odd(`${rootKey} entry is not an object`, owner);
      continue;
    }
    const scopes = field(owner, scopeKey);
    if (scopes !== undefined && scopes !== null && !Array.isArray(scopes)) odd(`${scopeKey} is not a list`, scopes);
    for (const scoped of list(owner, scopeKey)) {
      if (!isObj(scoped)) {
        odd(`${scopeKey} entry is not an object`, scoped);
        continue;
      }
      const at = origin(owner, scoped);
      const items = field(scoped, recordsKey);
      if (items !== undefined && items !== null && !Array.isArray(items)) odd(`${recordsKey} is not a list`, items, at);
      if (signal === 'logs') for (const r of list(scoped, recordsKey)) records.push(logRecord(at, r));
      else if (signal === 'traces') for (const s of list(scoped, recordsKey)) records.push(span(at, s));
      else for (const m of list(scoped, recordsKey)) records.push(...metricPoints(at, m));
    }
  }
  return { records };
}
