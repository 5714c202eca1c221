import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto } from '../data/types';
import { McpRenderer } from './misc';

/** An MCP call of `perplexity__search` whose result is `text`. */
function mcpCall(text: string): CallDto {
  return {
    kind: 'tool-call',
    id: 'toolu_1',
    name: 'mcp__perplexity__search',
    canonicalName: 'mcp__perplexity__search',
    toolKind: 'mcp',
    input: { query: 'x' },
    typedInput: {},
    timestamp: null,
    status: 'ok',
    durationMs: 12,
    durations: [],
    agentId: null,
    subagentKey: null,
    subagent: null,
    result: {
      isError: false,
      content: text,
      toolUseResult: undefined,
      typed: { kind: 'mcp', server: 'perplexity', tool: 'search', data: {} },
      error: null,
      images: [],
      timestamp: null,
    },
    truncated: false,
  } as unknown as CallDto;
}

describe('an MCP result', () => {
  it('of JSON holding Markdown texts shows each text as Markdown, under its name', () => {
    const text = JSON.stringify({ results: 'Found 2 results:\n\n1. **One** https://a.example/x\n2. Two' });
    const html = renderToStaticMarkup(<McpRenderer call={mcpCall(text)} />);
    expect(html).toContain('results');
    expect(html).toContain('<strong>One</strong>');
    expect(html).toMatch(/<ol[^>]*>/);
    expect(html).not.toContain('\\n');
    expect(html).not.toContain('%5Cn');
  });

  it('of other JSON shows it as JSON, and of plain text as Markdown', () => {
    const json = renderToStaticMarkup(<McpRenderer call={mcpCall('{"count": 3, "items": [1, 2]}')} />);
    expect(json).toContain('count');
    expect(json).not.toContain('{&quot;count&quot;');
    const md = renderToStaticMarkup(<McpRenderer call={mcpCall('**bold** {not json')} />);
    expect(md).toContain('<strong>bold</strong>');
  });
});
