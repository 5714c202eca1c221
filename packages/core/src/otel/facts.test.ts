import { describe, expect, it } from 'vitest';
import { decodeOtlpRequest } from './decode.js';
import { eventFacts } from './facts.js';

/** One Claude Code `tool_result` log record, its attributes as 2.1.332 exports them (../shared/corpus-otel). */
function toolNameOf(attributes: Record<string, string>): string {
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
  return event?.kind === 'event' ? eventFacts(event).toolName : `not an event: ${event?.kind}`;
}

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
