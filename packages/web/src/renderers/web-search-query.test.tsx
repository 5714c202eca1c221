/**
 * A Codex web search shows its query once: Codex keeps a search's query, never its results, and its output is the
 * query again, which the renderer showed under the query as if it were the results (review of the agents other than
 * Claude Code, the 0.169 web scenario).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { WebSearchRenderer } from './search';
import { callOf } from './test-call';

const search = (query: string, output: string, texts: string[]) =>
  callOf(
    'web_search',
    { query },
    output,
    { kind: 'web-search', data: { query, links: [], texts } } as unknown as TypedResult,
    'web-search',
    { query },
  );

describe('a web search whose transcript holds no results', () => {
  it('shows its query once and says the results are not in the transcript', () => {
    const html = renderToStaticMarkup(
      <WebSearchRenderer call={search('codex rollout format', 'codex rollout format', [])} />,
    );
    expect(html.split('codex rollout format')).toHaveLength(2);
    expect(html).toContain('The transcript keeps the query only, not the results.');
  });

  it('still shows a result text that is not the query', () => {
    const html = renderToStaticMarkup(<WebSearchRenderer call={search('q', 'Found three pages about q.', [])} />);
    expect(html).toContain('Found three pages about q.');
    expect(html).not.toContain('keeps the query only');
  });
});
