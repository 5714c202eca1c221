import { describe, expect, it } from 'vitest';
import { tierOf } from './tiers.js';

const policy = {
  defaultTier: 'summary' as const,
  projects: [
    { project: '/home/ann/api', tier: 'full' as const },
    { project: '-home-ann-web', tier: 'metadata' as const },
    { project: 'sessions', tier: 'full' as const },
  ],
};

describe('tierOf', () => {
  it('takes a rule by project path, or by folder name where the folder is the project', () => {
    expect(tierOf(policy, { agent: 'codex', projectPath: '/home/ann/api/src', projectDir: '/h/.codex/sessions' })).toBe(
      'full',
    );
    expect(
      tierOf(policy, { agent: 'claude', projectPath: undefined, projectDir: '/h/.claude/projects/-home-ann-web' }),
    ).toBe('metadata');
  });

  it("never takes a rule by Codex's sessions folder, which holds every project", () => {
    expect(tierOf(policy, { agent: 'codex', projectPath: '/home/ann/other', projectDir: '/h/.codex/sessions' })).toBe(
      'summary',
    );
    expect(tierOf(policy, { agent: 'copilot', projectPath: undefined, projectDir: '/h/.copilot/sessions' })).toBe(
      'summary',
    );
  });

  it('sends a session of no known project at the lowest tier a rule gives, when lower than the default', () => {
    const keepLow = {
      defaultTier: 'metadata' as const,
      projects: [{ project: '/home/ann/secret', tier: 'summary' as const }],
    };
    // a headless run's output: no path, its folder no project's; the rule may be meant for it
    const unknown = { agent: 'gemini', projectPath: undefined, projectDir: '/h/runs' };
    expect(tierOf(keepLow, unknown)).toBe('summary');
    // a known project no rule names keeps the default; a rule above the default changes nothing
    expect(tierOf(keepLow, { ...unknown, projectPath: '/home/ann/other' })).toBe('metadata');
    expect(tierOf({ defaultTier: 'summary', projects: [{ project: '/x', tier: 'full' }] }, unknown)).toBe('summary');
  });
});
