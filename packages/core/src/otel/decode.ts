/**
 * One OTLP/HTTP export request (the body as received, its path, Content-Type and Content-Encoding) → neutral
 * records plus issues. Never throws: a body that is not OTLP comes back `ok: false` with the reason.
 */
import { gunzipSync } from 'node:zlib';
import { messageOf } from '../errors.js';
import { capDepth } from '../internal/json-depth.js';
import { normalizeRequest } from './normalize.js';
import { CLIPPED, protobufRoots, readProtobuf } from './protobuf.js';
import type { OtelDecoded, OtelIssue, OtelSignal } from './types.js';

/** Deepest JSON nesting kept as structure (an attribute value nested deeper becomes its clipped text). */
export const OTLP_MAX_JSON_DEPTH = 64;
/** Deepest protobuf message nesting kept (each level of a nested attribute value is two messages). */
export const OTLP_MAX_MESSAGE_DEPTH = 48;
/** Largest body accepted after decompression (the receiver caps the compressed size itself). */
export const OTLP_MAX_DECODED_BYTES = 64 * 1024 * 1024;

export interface OtlpRequest {
  /** `/v1/logs`, `/v1/traces` or `/v1/metrics` (or the signal itself). */
  readonly signal: OtelSignal;
  readonly contentType: string;
  /** The Content-Encoding header ('' or `identity`: none; `gzip`). */
  readonly contentEncoding: string;
  readonly body: Uint8Array;
}

const signalOfPath = { '/v1/logs': 'logs', '/v1/traces': 'traces', '/v1/metrics': 'metrics' } as const;

/** The signal an OTLP/HTTP path carries, or null for any other path. */
export function signalOfOtlpPath(path: string): OtelSignal | null {
  return (signalOfPath as Record<string, OtelSignal>)[path.replace(/\/+$/, '')] ?? null;
}

/** `json`, `protobuf`, or null for a Content-Type OTLP/HTTP does not use. */
export function otlpEncodingOf(contentType: string): 'json' | 'protobuf' | null {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return null;
}

function failed(signal: OtelSignal, issue: OtelIssue): OtelDecoded {
  return { signal, records: [], issues: [issue], ok: false };
}

function errorText(error: unknown): string {
  return messageOf(error).split('\n')[0] ?? '';
}

/**
 * Decode one OTLP/HTTP request body.
 *
 * @example
 * decodeOtlpRequest({ signal: 'logs', contentType: 'application/json', contentEncoding: '', body })
 * // { ok: true, records: [{ kind: 'event', name: 'api_request', … }], issues: [] }
 */
export function decodeOtlpRequest(request: OtlpRequest): OtelDecoded {
  const { signal } = request;
  const encoding = otlpEncodingOf(request.contentType);
  if (encoding === null) {
    const shown = request.contentType === '' ? 'none' : request.contentType.slice(0, 80);
    return failed(signal, {
      code: 'unsupported_content_type',
      message: `content type ${shown}: OTLP/HTTP takes application/json or application/x-protobuf`,
    });
  }
  const contentEncoding = request.contentEncoding.trim().toLowerCase();
  let bytes = request.body;
  if (contentEncoding === 'gzip') {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: OTLP_MAX_DECODED_BYTES });
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE') {
        return failed(signal, {
          code: 'too_large',
          message: `gzip body decompresses to over ${OTLP_MAX_DECODED_BYTES} bytes`,
        });
      }
      return failed(signal, { code: 'bad_compression', message: `gzip body does not decompress: ${errorText(error)}` });
    }
  } else if (contentEncoding !== '' && contentEncoding !== 'identity') {
    return failed(signal, {
      code: 'unsupported_encoding',
      message: `content encoding ${contentEncoding.slice(0, 40)}: only gzip or none`,
    });
  }
  const issues: OtelIssue[] = [];
  let shaped: unknown;
  if (encoding === 'json') {
    try {
      shaped = JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(bytes));
    } catch (error) {
      return failed(signal, { code: 'invalid_json', message: `body is not JSON: ${errorText(error)}` });
    }
    const capped = capDepth(shaped, OTLP_MAX_JSON_DEPTH);
    shaped = capped.value;
    if (capped.replaced > 0) {
      issues.push({ code: 'too_deep', message: `${capped.replaced} value(s) nested too deep, kept as clipped text` });
    }
  } else {
    try {
      const read = readProtobuf(bytes, protobufRoots[signal], OTLP_MAX_MESSAGE_DEPTH);
      shaped = read.value;
      if (read.clipped > 0) {
        issues.push({ code: 'too_deep', message: `${read.clipped} value(s) nested too deep, kept as "${CLIPPED}"` });
      }
    } catch (error) {
      return failed(signal, { code: 'invalid_protobuf', message: `body is not OTLP protobuf: ${errorText(error)}` });
    }
    if (bytes.length > 0 && Object.keys(shaped as object).length === 0) {
      return failed(signal, { code: 'not_otlp', message: `protobuf body holds no OTLP ${signal} field` });
    }
  }
  const { records, issue } = normalizeRequest(signal, shaped);
  if (issue !== undefined) return failed(signal, issue);
  return { signal, records, issues, ok: true };
}
