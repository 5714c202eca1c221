import { describe, expect, it } from 'vitest';
import { decodeOtlpRequest } from './decode.js';
import { eventFacts, spanToolResult } from './facts.js';

/** One Claude Code `tool_result` log record, its attributes as 2.1.332 exports them (../shared/corpus-otel). */
function factsOf(attributes: Record<string, string>) {
  const body = JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
        scopeLogs: [
          {
            logRecords: [
              {
                timeUnixNano: '1795906000000000000',
                body: { stringValue: 'claude_code.tool_result' },
                attributes: Object.entries({ 'event.name': 'tool_result', 'session.id': 's', ...attributes }).map(
                  ([key, value]) => ({ key, value: { stringValue: value } }),
                ),
              },
            ],
          },
        ],
      },
    ],
  });
  const { records } = decodeOtlpRequest({
    signal: 'logs',
    contentType: 'application/json',
    contentEncoding: '',
    body: new TextEncoder().encode(body),
  });
  const [event] = records;
  if (event?.kind !== 'event') throw new Error(`not an event: ${event?.kind}`);
  return eventFacts(event);
}
const toolNameOf = (attributes: Record<string, string>): string => factsOf(attributes).toolName;

describe("Claude Code's tool_result events", () => {
  it('name an MCP tool as the transcript does, not `mcp_tool`', () => {
    // Was `mcp_tool` for every MCP call: measured times by tool lumped them together, under no transcript's name.
    expect(
      toolNameOf({
        tool_name: 'mcp_tool',
        tool_use_id: 'toolu_01S8EXU4tGSfa2L38ets50mf',
        tool_parameters: '{"mcp_server_name":"rec","mcp_tool_name":"echo"}',
      }),
    ).toBe('mcp__rec__echo');
    expect(
      toolNameOf({ tool_name: 'mcp_tool', tool_parameters: '{"mcp_server_name":"my server","mcp_tool_name":"a.b"}' }),
    ).toBe('mcp__my_server__a_b');
  });

  it('keep every other name, and `mcp_tool` when the parameters do not say which', () => {
    expect(toolNameOf({ tool_name: 'Bash', tool_parameters: '{"bash_command":"ls"}' })).toBe('Bash');
    expect(toolNameOf({ tool_name: 'mcp_tool' })).toBe('mcp_tool');
    expect(toolNameOf({ tool_name: 'mcp_tool', tool_parameters: '{"mcp_server_name":"rec"}' })).toBe('mcp_tool');
    expect(toolNameOf({ tool_name: 'mcp_tool', tool_parameters: '{not json' })).toBe('mcp_tool');
    expect(toolNameOf({ tool_name: 'mcp_tool', tool_parameters: 'null' })).toBe('mcp_tool');
  });
});

describe('a duration attribute', () => {
  it('is kept when a number of milliseconds, 0 included', () => {
    expect(factsOf({ tool_name: 'Bash', duration_ms: '250' }).durationMs).toBe(250);
    expect(factsOf({ tool_name: 'Bash', duration_ms: '0' }).durationMs).toBe(0);
  });

  it('is left out when negative or not a number: no time taken off a session', () => {
    expect(factsOf({ tool_name: 'Bash', duration_ms: '-1200' }).durationMs).toBeNull();
    expect(factsOf({ tool_name: 'Bash', duration_ms: 'soon' }).durationMs).toBeNull();
  });
});

/** One span (Gemini CLI's GenAI `tool_call` span of call `c1`) from `start` to `end` (Unix nanoseconds). */
function spanOf(start: string, end: string) {
  const body = JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: '0af7651916cd43dd8448eb211c80319c',
                spanId: 'b7ad6b7169203331',
                name: 'tool_call',
                startTimeUnixNano: start,
                endTimeUnixNano: end,
                attributes: [
                  { key: 'session.id', value: { stringValue: 's' } },
                  { key: 'gen_ai.operation.name', value: { stringValue: 'tool_call' } },
                  { key: 'gen_ai.tool.call_id', value: { stringValue: 'c1' } },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  const { records } = decodeOtlpRequest({
    signal: 'traces',
    contentType: 'application/json',
    contentEncoding: '',
    body: new TextEncoder().encode(body),
  });
  const [span] = records;
  if (span?.kind !== 'span') throw new Error(`not a span: ${span?.kind}`);
  return span;
}

describe("a span's length", () => {
  it('is its end less its start, to the microsecond', () => {
    const span = spanOf('1795906000000000000', '1795906000250500000');
    expect(span.durationMs).toBe(250.5);
    expect(spanToolResult(span)?.durationMs).toBe(250.5);
  });

  it('is unknown when it ends before it starts (a clock stepped back): no time taken off a session', () => {
    const span = spanOf('1795906100000000000', '1795906000000000000');
    expect(span.durationMs).toBeNull();
    expect(spanToolResult(span)?.durationMs).toBeNull();
  });
});

describe('a request whose parts have another shape than OTLP', () => {
  const decoded = (body: unknown) =>
    decodeOtlpRequest({
      signal: 'logs',
      contentType: 'application/json',
      contentEncoding: '',
      body: new TextEncoder().encode(JSON.stringify(body)),
    });

  it('keeps each such part as an unknown record with its reason, never drops it', () => {
    const cases: [unknown, string, unknown][] = [
      [{ resourceLogs: [1, 'x'] }, 'resourceLogs entry is not an object', 1],
      [{ resourceLogs: [{ scopeLogs: 'x' }] }, 'scopeLogs is not a list', 'x'],
      [{ resourceLogs: [{ scopeLogs: [7] }] }, 'scopeLogs entry is not an object', 7],
      [{ resourceLogs: [{ scopeLogs: [{ logRecords: { a: 1 } }] }] }, 'logRecords is not a list', { a: 1 }],
    ];
    for (const [body, reason, raw] of cases) {
      const { ok, records } = decoded(body);
      expect(ok).toBe(true);
      expect(records[0]).toMatchObject({ kind: 'unknown', signal: 'logs', reason, raw });
    }
    // the second entry of the first case too
    expect(decoded({ resourceLogs: [1, 'x'] }).records).toHaveLength(2);
    // an empty or absent list is nothing to keep
    expect(decoded({ resourceLogs: [{ scopeLogs: [{ logRecords: [] }] }, {}] }).records).toEqual([]);
  });
});
