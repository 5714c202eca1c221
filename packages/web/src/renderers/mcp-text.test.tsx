import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallDto, TypedResult } from '../data/types';
import { McpRenderer } from './misc';
import { callOf } from './test-call';

/** An MCP call of `perplexity__search` whose result is `text`. */
const mcpCall = (text: string): CallDto =>
  callOf(
    'mcp__perplexity__search',
    { query: 'x' },
    text,
    { kind: 'mcp', server: 'perplexity', tool: 'search', data: {} } as unknown as TypedResult,
    'mcp',
  );

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

  it("shows the response as the tool gave it, without Gemini CLI's <untrusted_context> wrapper", () => {
    const call = callOf(
      'mcp_rec_echo__echo',
      { text: 'hi' },
      '<untrusted_context>\necho: hi from gemini\n</untrusted_context>',
      {
        kind: 'mcp',
        tool: 'mcp_rec_echo__echo',
        data: { server: 'rec_echo', tool: 'echo', text: 'echo: hi from gemini', blocks: [] },
      } as unknown as TypedResult,
      'mcp',
    );
    const html = renderToStaticMarkup(<McpRenderer call={call} />);
    expect(html).toContain('echo: hi from gemini');
    expect(html).not.toContain('untrusted_context');
  });

  it("says a Codex script's call was the script's, not the model's, and of the model's own says nothing", () => {
    const typed = { kind: 'mcp', server: 'codex_apps', tool: 'github_get_pr_info', data: {} } as unknown as TypedResult;
    const byScript = callOf('mcp__codex_apps__github_get_pr_info', { pr_number: 40 }, '{}', typed, 'mcp', {
      fromScript: true,
    });
    expect(renderToStaticMarkup(<McpRenderer call={byScript} />)).toContain('Called by an exec script');
    const own = callOf('mcp__codex_apps__github_get_pr_info', { pr_number: 40 }, '{}', typed, 'mcp');
    expect(renderToStaticMarkup(<McpRenderer call={own} />)).not.toContain('exec script');
  });
});
