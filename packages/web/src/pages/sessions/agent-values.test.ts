import { describe, expect, it } from 'vitest';
import type { SessionsResponse } from '../../data/types';
import { agentValues } from './SessionFilters';

const facets: SessionsResponse['facets'] = {
  projects: ['/a', '/b', '/c'],
  models: ['claude-opus-4-6', 'gemini-3-flash', 'gpt-5.5'],
  versions: ['0.169.0', '2.1.330'],
  agents: [
    { agent: 'claude', versions: ['2.1.330'], models: ['claude-opus-4-6'], projects: ['/a', '/b'] },
    { agent: 'codex', versions: ['0.169.0'], models: ['gpt-5.5'], projects: ['/c'] },
  ],
};

describe("the project and model menus' options", () => {
  it("are the chosen agent's own, every one with no agent chosen", () => {
    expect(agentValues(facets, 'codex', 'models', '')).toEqual(['gpt-5.5']);
    expect(agentValues(facets, 'codex', 'projects', '')).toEqual(['/c']);
    expect(agentValues(facets, '', 'models', '')).toEqual(facets.models);
  });

  it('keep the value chosen though the agent has none of it, and every one where the server tells none by agent', () => {
    expect(agentValues(facets, 'codex', 'models', 'claude-opus-4-6')).toEqual(['claude-opus-4-6', 'gpt-5.5']);
    const older = { ...facets, agents: facets.agents.map(({ agent, versions }) => ({ agent, versions })) };
    expect(agentValues(older, 'codex', 'projects', '')).toEqual(facets.projects);
    expect(agentValues(undefined, 'codex', 'models', '')).toEqual([]);
  });
});
