import { describe, expect, it } from 'vitest';
import { agentVersionFacets, compareVersions } from './versions.js';

describe('compareVersions', () => {
  it('orders by the numbers, part by part, not as text', () => {
    const sorted = ['2.1.330', '1.0.128', '1.0.51', '0.169.0', '2.0.9', '2.0.76', '0.50.0'].sort(compareVersions);
    expect(sorted).toEqual(['0.50.0', '0.169.0', '1.0.51', '1.0.128', '2.0.9', '2.0.76', '2.1.330']);
  });

  it('keeps versions that differ only by case or suffix apart and in a stable order', () => {
    expect(compareVersions('1.0.0-beta', '1.0.0')).toBeGreaterThan(0);
    expect(compareVersions('0.6.1', '0.6.1')).toBe(0);
    expect(compareVersions('A1', 'a1')).not.toBe(0);
  });
});

describe('agentVersionFacets', () => {
  it('groups versions by agent, agents in the registry order, each version once', () => {
    const facets = agentVersionFacets(
      [
        { agent: 'gemini', version: '0.61.0' },
        { agent: 'claude', version: '2.1.330' },
        { agent: 'claude', version: '1.0.128' },
        { agent: 'codex', version: null },
        { agent: 'claude', version: '2.1.330' },
        { agent: 'zed', version: '' },
        { agent: 'gemini', version: '2.1.330' },
      ],
      ['claude', 'codex', 'gemini'],
    );
    expect(facets.agents).toEqual([
      { agent: 'claude', versions: ['1.0.128', '2.1.330'] },
      { agent: 'codex', versions: [] },
      { agent: 'gemini', versions: ['0.61.0', '2.1.330'] },
      { agent: 'zed', versions: [] },
    ]);
    expect(facets.versions).toEqual(['0.61.0', '1.0.128', '2.1.330']);
  });

  it('says nothing of agents with no session', () => {
    expect(agentVersionFacets([], ['claude', 'codex'])).toEqual({ agents: [], versions: [] });
  });
});
