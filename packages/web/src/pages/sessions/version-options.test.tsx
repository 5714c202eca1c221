import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionsResponse } from '../../data/types';
import { VersionOptions, versionChosen } from './SessionFilters';

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
        agent=""
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
      ['claude', ['claude:1.0.51', 'claude:2.1.330']],
      ['codex', ['codex:0.50.0', 'codex:0.169.0']],
    ]);
  });

  // Two agents' series may share a version (Claude Code's and Gemini CLI's 0.6.1): one chosen under an agent's name
  // lists that agent's sessions, not every agent's of that version.
  const shared = facets([
    { agent: 'claude', versions: ['0.6.1', '2.1.330'] },
    { agent: 'gemini', versions: ['0.6.1', '0.9.0'] },
  ]);

  it("chooses the agent with a version chosen under the agent's name", () => {
    expect(versionChosen(shared, 'gemini:0.6.1')).toEqual({ agent: 'gemini', version: '0.6.1' });
    expect(versionChosen(shared, 'claude:0.6.1')).toEqual({ agent: 'claude', version: '0.6.1' });
    // a version listed plainly (one agent has versions, or one the address chose) sets the version alone
    expect(versionChosen(shared, '0.6.1')).toEqual({ version: '0.6.1' });
    expect(versionChosen(shared, 'nobody:1')).toEqual({ version: 'nobody:1' });
  });

  it("lists the chosen agent's versions alone, plainly", () => {
    const html = renderToStaticMarkup(<VersionOptions value="0.6.1" agent="gemini" facets={shared} />);
    expect(html).not.toContain('optgroup');
    expect([...html.matchAll(/value="([^"]*)"/g)].map((v) => v[1])).toEqual(['0.6.1', '0.9.0']);
  });

  it('lists them plainly when one agent has versions, and keeps a chosen one no session has', () => {
    const html = renderToStaticMarkup(
      <VersionOptions value="9.9.9" agent="" facets={facets([{ agent: 'claude', versions: ['1.0.51', '2.1.330'] }])} />,
    );
    expect(html).not.toContain('optgroup');
    expect([...html.matchAll(/value="([^"]*)"/g)].map((v) => v[1])).toEqual(['9.9.9', '1.0.51', '2.1.330']);
  });
});
