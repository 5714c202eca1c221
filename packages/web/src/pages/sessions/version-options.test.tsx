import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionsResponse } from '../../data/types';
import { VersionOptions } from './SessionFilters';

const facets = (agents: SessionsResponse['facets']['agents']): SessionsResponse['facets'] => ({
  projects: [],
  models: [],
  agents,
  versions: [...new Set(agents.flatMap((a) => a.versions))],
});

describe("the version menu's options", () => {
  it("groups versions under each agent's name when two agents have versions", () => {
    const html = renderToStaticMarkup(
      <VersionOptions
        value=""
        facets={facets([
          { agent: 'claude', versions: ['1.0.51', '2.1.330'] },
          { agent: 'aider', versions: [] },
          { agent: 'codex', versions: ['0.50.0', '0.169.0'] },
        ])}
      />,
    );
    const groups = [...html.matchAll(/<optgroup label="([^"]*)">(.*?)<\/optgroup>/g)].map((m) => [
      m[1],
      [...(m[2] ?? '').matchAll(/value="([^"]*)"/g)].map((v) => v[1]),
    ]);
    expect(groups).toEqual([
      ['claude', ['1.0.51', '2.1.330']],
      ['codex', ['0.50.0', '0.169.0']],
    ]);
  });

  it('lists them plainly when one agent has versions, and keeps a chosen one no session has', () => {
    const html = renderToStaticMarkup(
      <VersionOptions value="9.9.9" facets={facets([{ agent: 'claude', versions: ['1.0.51', '2.1.330'] }])} />,
    );
    expect(html).not.toContain('optgroup');
    expect([...html.matchAll(/value="([^"]*)"/g)].map((v) => v[1])).toEqual(['9.9.9', '1.0.51', '2.1.330']);
  });
});
