/**
 * OTLP/protobuf request bodies → the same plain shape OTLP/JSON has (lowerCamelCase names, 64-bit integers as
 * decimal text, trace and span ids as hex), so one normalizer reads both encodings. The message layouts below are
 * the field numbers of the OTLP `.proto` files (opentelemetry-proto v1) for the fields AgentDash reads; unknown
 * fields are skipped as the wire format allows. Throws on malformed bytes: `decode.ts` turns that into an issue.
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

type Scalar = 'string' | 'bytes' | 'hex' | 'fixed64' | 'sfixed64' | 'int64' | 'double' | 'bool' | 'uint32' | 'fixed32';
interface Field {
  readonly name: string;
  readonly type: Scalar | { readonly message: string };
  readonly repeated?: true;
}
type Layout = Readonly<Record<number, Field>>;

const msg = (message: string) => ({ message }) as const;

const layouts: Readonly<Record<string, Layout>> = {
  ExportLogsServiceRequest: { 1: { name: 'resourceLogs', type: msg('ResourceLogs'), repeated: true } },
  ExportTraceServiceRequest: { 1: { name: 'resourceSpans', type: msg('ResourceSpans'), repeated: true } },
  ExportMetricsServiceRequest: { 1: { name: 'resourceMetrics', type: msg('ResourceMetrics'), repeated: true } },
  Resource: { 1: { name: 'attributes', type: msg('KeyValue'), repeated: true } },
  InstrumentationScope: {
    1: { name: 'name', type: 'string' },
    2: { name: 'version', type: 'string' },
    3: { name: 'attributes', type: msg('KeyValue'), repeated: true },
  },
  KeyValue: { 1: { name: 'key', type: 'string' }, 2: { name: 'value', type: msg('AnyValue') } },
  AnyValue: {
    1: { name: 'stringValue', type: 'string' },
    2: { name: 'boolValue', type: 'bool' },
    3: { name: 'intValue', type: 'int64' },
    4: { name: 'doubleValue', type: 'double' },
    5: { name: 'arrayValue', type: msg('ArrayValue') },
    6: { name: 'kvlistValue', type: msg('KeyValueList') },
    7: { name: 'bytesValue', type: 'bytes' },
  },
  ArrayValue: { 1: { name: 'values', type: msg('AnyValue'), repeated: true } },
  KeyValueList: { 1: { name: 'values', type: msg('KeyValue'), repeated: true } },
  ResourceLogs: {
    1: { name: 'resource', type: msg('Resource') },
    2: { name: 'scopeLogs', type: msg('ScopeLogs'), repeated: true },
  },
  ScopeLogs: {
    1: { name: 'scope', type: msg('InstrumentationScope') },
    2: { name: 'logRecords', type: msg('LogRecord'), repeated: true },
  },
  LogRecord: {
    1: { name: 'timeUnixNano', type: 'fixed64' },
    11: { name: 'observedTimeUnixNano', type: 'fixed64' },
    2: { name: 'severityNumber', type: 'uint32' },
    3: { name: 'severityText', type: 'string' },
    5: { name: 'body', type: msg('AnyValue') },
    6: { name: 'attributes', type: msg('KeyValue'), repeated: true },
    9: { name: 'traceId', type: 'hex' },
    10: { name: 'spanId', type: 'hex' },
    12: { name: 'eventName', type: 'string' },
  },
  ResourceSpans: {
    1: { name: 'resource', type: msg('Resource') },
    2: { name: 'scopeSpans', type: msg('ScopeSpans'), repeated: true },
  },
  ScopeSpans: {
    1: { name: 'scope', type: msg('InstrumentationScope') },
    2: { name: 'spans', type: msg('Span'), repeated: true },
  },
  Span: {
    1: { name: 'traceId', type: 'hex' },
    2: { name: 'spanId', type: 'hex' },
    4: { name: 'parentSpanId', type: 'hex' },
    5: { name: 'name', type: 'string' },
    6: { name: 'kind', type: 'uint32' },
    7: { name: 'startTimeUnixNano', type: 'fixed64' },
    8: { name: 'endTimeUnixNano', type: 'fixed64' },
    9: { name: 'attributes', type: msg('KeyValue'), repeated: true },
    15: { name: 'status', type: msg('Status') },
  },
  Status: { 2: { name: 'message', type: 'string' }, 3: { name: 'code', type: 'uint32' } },
  ResourceMetrics: {
    1: { name: 'resource', type: msg('Resource') },
    2: { name: 'scopeMetrics', type: msg('ScopeMetrics'), repeated: true },
  },
  ScopeMetrics: {
    1: { name: 'scope', type: msg('InstrumentationScope') },
    2: { name: 'metrics', type: msg('Metric'), repeated: true },
  },
  Metric: {
    1: { name: 'name', type: 'string' },
    2: { name: 'description', type: 'string' },
    3: { name: 'unit', type: 'string' },
    5: { name: 'gauge', type: msg('Gauge') },
    7: { name: 'sum', type: msg('Sum') },
    9: { name: 'histogram', type: msg('Opaque') },
    10: { name: 'exponentialHistogram', type: msg('Opaque') },
    11: { name: 'summary', type: msg('Opaque') },
  },
  Gauge: { 1: { name: 'dataPoints', type: msg('NumberDataPoint'), repeated: true } },
  Sum: {
    1: { name: 'dataPoints', type: msg('NumberDataPoint'), repeated: true },
    2: { name: 'aggregationTemporality', type: 'uint32' },
    3: { name: 'isMonotonic', type: 'bool' },
  },
  NumberDataPoint: {
    7: { name: 'attributes', type: msg('KeyValue'), repeated: true },
    2: { name: 'startTimeUnixNano', type: 'fixed64' },
    3: { name: 'timeUnixNano', type: 'fixed64' },
    4: { name: 'asDouble', type: 'double' },
    6: { name: 'asInt', type: 'sfixed64' },
  },
  Opaque: {},
};

export const protobufRoots = {
  logs: 'ExportLogsServiceRequest',
  traces: 'ExportTraceServiceRequest',
  metrics: 'ExportMetricsServiceRequest',
} as const;

/** Replaces a message nested deeper than the limit. */
export const CLIPPED = '[nested too deep]';

export interface ProtobufRead {
  readonly value: Record<string, unknown>;
  /** How many messages were replaced by `CLIPPED` for sitting deeper than `maxDepth`. */
  readonly clipped: number;
}

const wireOf: Readonly<Record<Scalar, WireType>> = {
  string: WireType.LengthDelimited,
  bytes: WireType.LengthDelimited,
  hex: WireType.LengthDelimited,
  fixed64: WireType.Bit64,
  sfixed64: WireType.Bit64,
  double: WireType.Bit64,
  fixed32: WireType.Bit32,
  int64: WireType.Varint,
  bool: WireType.Varint,
  uint32: WireType.Varint,
};

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function readScalar(reader: BinaryReader, type: Scalar): unknown {
  switch (type) {
    case 'string':
      return reader.string();
    case 'bytes':
    case 'hex':
      return toHex(reader.bytes());
    case 'fixed64':
      return String(reader.fixed64());
    case 'sfixed64':
      return String(reader.sfixed64());
    case 'int64':
      return String(reader.int64());
    case 'double':
      return reader.double();
    case 'bool':
      return reader.bool();
    case 'uint32':
      return reader.uint32();
    case 'fixed32':
      return reader.fixed32();
  }
}

/** Decode `bytes` as the message `root` (one of `protobufRoots`). Throws on malformed input. */
export function readProtobuf(bytes: Uint8Array, root: string, maxDepth: number): ProtobufRead {
  let clipped = 0;
  const decodeUtf8 = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b);
  const readMessage = (data: Uint8Array, name: string, depth: number): Record<string, unknown> => {
    const layout = layouts[name] ?? {};
    const reader = new BinaryReader(data, decodeUtf8);
    const out: Record<string, unknown> = {};
    while (reader.pos < reader.len) {
      const [fieldNo, wireType] = reader.tag();
      const field = layout[fieldNo];
      const type = field?.type;
      if (field === undefined || type === undefined) {
        reader.skip(wireType, fieldNo);
        continue;
      }
      let value: unknown;
      if (typeof type === 'object') {
        if (wireType !== WireType.LengthDelimited) throw new Error(`field ${fieldNo} of ${name}: wrong wire type`);
        const inner = reader.bytes();
        if (depth + 1 > maxDepth) {
          clipped += 1;
          value = CLIPPED;
        } else value = readMessage(inner, type.message, depth + 1);
      } else {
        // No field read here is a packed repeated scalar: a length-delimited value where a number is expected is
        // another message's bytes (a metrics body sent to /v1/logs), refused, never read as empty fields.
        if (wireType !== wireOf[type]) throw new Error(`field ${fieldNo} of ${name}: wrong wire type`);
        value = readScalar(reader, type);
      }
      if (field.repeated) {
        const list = (out[field.name] as unknown[] | undefined) ?? [];
        list.push(value);
        out[field.name] = list;
      } else out[field.name] = value;
    }
    return out;
  };
  const value = readMessage(bytes, root, 1);
  return { value, clipped };
}
