import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { blocksOnlyOf } from '../../data/agents';
import type { AgentInfo, UsageResponse } from '../../data/types';
import { UsageCards } from './UsageCards';
import { UsageBlocks } from './UsageTables';

const agent = (id: string, label: string, billingBlocks: boolean) =>
  ({ id, label, resume: null, homes: '', badge: { dark: '#ffffff', light: '#000000' }, billingBlocks }) as AgentInfo;
const agents = [agent('claude', 'Claude Code', true), agent('codex', 'Codex', false), agent('gemini', 'Gemini', false)];

const none = {
  responses: 1,
  inputTokens: 10,
  outputTokens: 5,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
  costUsd: 0.5,
  models: {},
  unpricedModels: [],
  cacheHitRatio: 0,
};
/** A period whose last block is still running (Claude Code's responses, as the server sums them for all agents). */
const usage = {
  totals: none,
  blocks: [{ ...none, start: '2026-11-01T10:00:00Z', end: '2026-11-01T15:00:00Z', isActive: true, remainingMs: 3e6 }],
  blocksTotal: 1,
} as unknown as UsageResponse;

describe('the Usage page filtered to an agent without 5-hour blocks', () => {
  it('knows whose the blocks are only when the agent chosen has none', () => {
    expect(blocksOnlyOf(agents, 'codex')).toBe('Claude Code');
    expect(blocksOnlyOf(agents, 'claude')).toBeUndefined();
    expect(blocksOnlyOf(agents, '')).toBeUndefined();
    expect(blocksOnlyOf(undefined, 'codex')).toBeUndefined();
  });

  // Before: Codex or Gemini chosen, the card said "no active block" and the table stood empty, as if that agent had
  // limits and none was in use.
  it("says the blocks are Claude Code's usage limits, in the card and in place of the table", () => {
    const cards = renderToStaticMarkup(<UsageCards usage={usage} blocksOnly="Claude Code" />);
    expect(cards).toContain('Claude Code&#x27;s usage limits only');
    expect(cards).not.toContain('no active block');
    expect(cards).not.toContain('left');
    const table = renderToStaticMarkup(<UsageBlocks usage={usage} blocksOnly="Claude Code" />);
    expect(table).toContain('Usage limits in 5-hour blocks are Claude Code&#x27;s');
    expect(table).not.toContain('<table');
  });

  it('shows the running block as before when the blocks are the agent’s own', () => {
    const cards = renderToStaticMarkup(<UsageCards usage={usage} />);
    expect(cards).toMatch(/active · 50 min(?:<!-- -->)? left/);
    expect(renderToStaticMarkup(<UsageBlocks usage={usage} />)).toContain('<table');
  });
});
