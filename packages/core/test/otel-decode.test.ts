import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  corpusOtelDir,
  hasCorpusOtel,
  otelFixtureDir,
  otelRecordings,
  readRecording,
} from '@agentdash/testing/otel-recordings';
import { describe, expect, it } from 'vitest';
import { streamRecords } from '../src/adapters/claude-code/read-records.js';
import { discoverFiles } from '../src/index.js';
import { decodeOtlpRequest, signalOfOtlpPath } from '../src/otel/decode.js';
import { attrText, type OtelRecord } from '../src/otel/types.js';

function decodeAll(dir: string) {
  const records: OtelRecord[] = [];
  const issues: string[] = [];
  for (const request of readRecording(dir)) {
    const signal = signalOfOtlpPath(request.path);
    if (signal === null) throw new Error(`unknown path ${request.path}`);
    const decoded = decodeOtlpRequest({
      signal,
      contentType: request.contentType,
      contentEncoding: '',
      body: request.body,
    });
    records.push(...decoded.records);
    issues.push(...decoded.issues.map((i) => `${request.t} ${i.code}`));
  }
  return { records, issues };
}

async function transcriptFacts(dir: string) {
  const { files } = await discoverFiles([join(dir, 'claude-home')]);
  const callIds = new Set<string>();
  const requestIds = new Set<string>();
  const sessionIds = new Set<string>();
  for (const file of files) {
    await streamRecords(file.path, (event) => {
      if (event.kind !== 'record' || event.record.kind !== 'assistant') return;
      if (event.record.sessionId !== undefined) sessionIds.add(event.record.sessionId);
      if (event.record.requestId !== undefined) requestIds.add(event.record.requestId);
      for (const block of event.record.content) if (block.kind === 'tool-use' && block.id) callIds.add(block.id);
    });
  }
  return { callIds, requestIds, sessionIds };
}

const named = (records: readonly OtelRecord[], kind: OtelRecord['kind'], name: string) =>
  records.filter((r) => r.kind === kind && 'name' in r && r.name === name);

/** The type each attribute has, per record kind and name: what must not depend on the encoding. */
function attributeTypes(records: readonly OtelRecord[]): Record<string, string> {
  const types: Record<string, string> = {};
  for (const r of records) {
    if (r.kind === 'unknown') continue;
    for (const [key, value] of Object.entries(r.attributes)) {
      types[`${r.kind}:${r.name}:${key}`] = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    }
  }
  return types;
}

function checkRecording(base: string) {
  for (const name of otelRecordings) {
    it(`${name}: every request decodes, every tool_result joins a transcript call and a tool span`, async () => {
      const dir = join(base, name);
      const decoded = decodeAll(dir);
      expect(decoded.issues).toEqual([]);
      expect(decoded.records.filter((r) => r.kind === 'unknown')).toEqual([]);
      const { callIds, requestIds, sessionIds } = await transcriptFacts(dir);
      // A trimmed recording keeps whole requests, which may also hold other sessions' records.
      const records = decoded.records.filter(
        (r) => r.kind !== 'unknown' && sessionIds.has(attrText(r.attributes, 'session.id')),
      );
      const toolResults = named(records, 'event', 'tool_result');
      expect(toolResults.length).toBeGreaterThan(0);
      const ids = toolResults.map((r) => (r.kind === 'event' ? attrText(r.attributes, 'tool_use_id') : ''));
      expect(ids.filter((id) => !callIds.has(id))).toEqual([]);
      const toolSpanIds = new Set(
        named(records, 'span', 'claude_code.tool').map((r) =>
          r.kind === 'span' ? attrText(r.attributes, 'gen_ai.tool.call.id') : '',
        ),
      );
      expect(ids.filter((id) => !toolSpanIds.has(id))).toEqual([]);
      // One llm_request span per api_request event, with the same request ids; most are in the transcripts.
      const apiIds = named(records, 'event', 'api_request').map((r) =>
        r.kind === 'event' ? attrText(r.attributes, 'request_id') : '',
      );
      const spanIds = named(records, 'span', 'claude_code.llm_request').map((r) =>
        r.kind === 'span' ? attrText(r.attributes, 'gen_ai.response.id') || attrText(r.attributes, 'request_id') : '',
      );
      // (a failed attempt has its span too, and an api_error event instead)
      expect(apiIds.filter((id) => !spanIds.includes(id))).toEqual([]);
      expect(apiIds.filter((id) => requestIds.has(id)).length).toBeGreaterThan(apiIds.length * 0.9);
    });
  }

  it('JSON and protobuf give the same kinds of record with the same attribute types', () => {
    const json = attributeTypes(decodeAll(join(base, otelRecordings[0])).records);
    const protobuf = attributeTypes(decodeAll(join(base, otelRecordings[1])).records);
    const shared = Object.keys(protobuf).filter((key) => key in json);
    expect(shared.length).toBeGreaterThan(100);
    expect(Object.fromEntries(shared.map((k) => [k, protobuf[k]]))).toEqual(
      Object.fromEntries(shared.map((k) => [k, json[k]])),
    );
    // The quirk the README warns about, read as sent: text in events, numbers and booleans in spans.
    expect([json['event:tool_result:duration_ms'], json['span:claude_code.tool.execution:duration_ms']]).toEqual([
      'string',
      'number',
    ]);
    expect([protobuf['event:tool_result:success'], protobuf['span:claude_code.tool.execution:success']]).toEqual([
      'string',
      'boolean',
    ]);
  });
}

describe('OTLP decoding over the bundled trimmed recordings', () => checkRecording(otelFixtureDir));

const fullTitle = hasCorpusOtel
  ? 'OTLP decoding over ../shared/corpus-otel'
  : 'OTLP decoding over ../shared/corpus-otel (skipped: ../shared/corpus-otel is not present)';
describe.skipIf(!hasCorpusOtel)(fullTitle, () => checkRecording(corpusOtelDir));

describe('OTLP bodies that are not what they say', () => {
  const [logs] = readRecording(join(otelFixtureDir, '2.1.332-protobuf'));
  const [jsonLogs] = readRecording(join(otelFixtureDir, '2.1.332-json'));
  if (logs === undefined || jsonLogs === undefined) throw new Error('fixture recordings are empty');
  const decode = (contentType: string, body: Uint8Array, contentEncoding = '', signal: 'logs' | 'traces' = 'logs') =>
    decodeOtlpRequest({ signal, contentType, contentEncoding, body });
  const codes = (d: ReturnType<typeof decode>) => [d.ok, d.records.length, ...d.issues.map((i) => i.code)];
  const text = (s: string) => new TextEncoder().encode(s);

  it('gzip gives the same records as the plain body', () => {
    expect(decode('application/x-protobuf', gzipSync(logs.body), 'gzip')).toEqual(
      decode('application/x-protobuf', logs.body),
    );
    expect(decode('application/json', gzipSync(jsonLogs.body), 'GZIP').records).toEqual(
      decode('application/json', jsonLogs.body).records,
    );
  });

  it('says what is wrong, never throws', () => {
    expect(codes(decode('text/plain', logs.body))).toEqual([false, 0, 'unsupported_content_type']);
    expect(codes(decode('application/x-protobuf', logs.body, 'br'))).toEqual([false, 0, 'unsupported_encoding']);
    expect(codes(decode('application/x-protobuf', logs.body, 'gzip'))).toEqual([false, 0, 'bad_compression']);
    expect(codes(decode('application/x-protobuf', logs.body.subarray(0, logs.body.length - 7)))).toEqual([
      false,
      0,
      'invalid_protobuf',
    ]);
    expect(codes(decode('application/x-protobuf', text('hello, world')))).toEqual([false, 0, 'invalid_protobuf']);
    expect(codes(decode('application/json', text('{"resourceLogs": [')))).toEqual([false, 0, 'invalid_json']);
    expect(codes(decode('application/json', text('[1, 2]')))).toEqual([false, 0, 'not_otlp']);
    expect(codes(decode('application/json', text('{"hello": 1}')))).toEqual([false, 0, 'not_otlp']);
    expect(codes(decode('application/json', jsonLogs.body, '', 'traces'))).toEqual([false, 0, 'not_otlp']);
    expect(codes(decode('application/json; charset=utf-8', text('{}')))).toEqual([true, 0]);
    expect(codes(decode('application/x-protobuf', new Uint8Array()))).toEqual([true, 0]);
  });

  it('clips attribute values nested too deep, in both encodings, and keeps the record', () => {
    const deepText = `${'{"arrayValue":{"values":['.repeat(5000)}{"stringValue":"x"}${']}}'.repeat(5000)}`;
    const body = `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"1","attributes":[{"key":"deep","value":${deepText}}]}]}]}]}`;
    const fromJson = decode('application/json', text(body));
    expect(codes(fromJson)).toEqual([true, 1, 'too_deep']);
    // A protobuf AnyValue nested 1,000 levels (field 5 array → field 1 value…), built from the inside out.
    let value = Uint8Array.of(0x0a, 0x01, 0x78);
    const wrap = (tag: number, inner: Uint8Array) => {
      const len: number[] = [];
      for (let n = inner.length; ; n >>>= 7) {
        if (n < 0x80) {
          len.push(n);
          break;
        }
        len.push((n & 0x7f) | 0x80);
      }
      const out = new Uint8Array(1 + len.length + inner.length);
      out.set([tag, ...len]);
      out.set(inner, 1 + len.length);
      return out;
    };
    for (let i = 0; i < 1000; i += 1) value = wrap(0x2a, wrap(0x0a, value));
    const keyValue = wrap(0x32, Uint8Array.from([...wrap(0x0a, text('deep')), ...wrap(0x12, value)]));
    const request = wrap(0x0a, wrap(0x12, wrap(0x12, keyValue)));
    const fromProtobuf = decode('application/x-protobuf', request);
    expect(codes(fromProtobuf)).toEqual([true, 1, 'too_deep']);
  });
});
