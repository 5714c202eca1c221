import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../data/types';
import { UsageCards } from './UsageCards';
import { AgentsTable, ModelsTable, UsageBlocks } from './UsageTables';

const none = {
  responses: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  reasoningOutputTokens: 0,
  costUsd: null,
  models: {},
  unpricedModels: [],
  cacheHitRatio: 0,
};

const cacheHit = (usage: UsageResponse) =>
  /data-testid="cache-hit">(?:<!-- -->)?([^<]*)</.exec(renderToStaticMarkup(<UsageCards usage={usage} />))?.[1];

describe('UsageCards', () => {
  it('gives no cache-hit ratio for a period without a response, and the ratio otherwise', () => {
    const usage = { totals: none, blocks: [] } as unknown as UsageResponse;
    expect(cacheHit(usage)).toBe('—');
    const some = { totals: { ...none, responses: 3, cacheReadInputTokens: 90, cacheHitRatio: 0.9 }, blocks: [] };
    expect(cacheHit(some as unknown as UsageResponse)).toBe('90%');
  });

  it('puts the metric the page shows first', () => {
    const usage = { totals: { ...none, responses: 2, inputTokens: 10, costUsd: 0.5 }, blocks: [] };
    const order = (metric: 'cost' | 'tokens') =>
      [
        ...renderToStaticMarkup(<UsageCards usage={usage as unknown as UsageResponse} metric={metric} />).matchAll(
          /data-testid="usage-card-(\w+)"/g,
        ),
      ].map((m) => m[1]);
    expect(order('cost')).toEqual(['cost', 'tokens']);
    expect(order('tokens')).toEqual(['tokens', 'cost']);
  });

  it("says the tokens are lower bounds where the cost is: no input recorded, or only the stream's first output count", () => {
    const totals = { ...none, responses: 2, inputTokens: 10, outputTokens: 818, costUsd: 0.5 };
    const note = (extra: object) =>
      /data-testid="usage-card-tokens">.*?class="metric-value">([^<]*)<.*?class="metric-note">([^<]*)</
        .exec(renderToStaticMarkup(<UsageCards usage={{ totals: { ...totals, ...extra }, blocks: [] } as never} />))
        ?.slice(1);
    expect(note({})).toEqual(['828', '10 in · 818 out']);
    expect(note({ outputUnrecordedModels: ['claude-sonnet-4'] })).toEqual(['828 + ?', '10 in · 818 + ? out']);
    expect(note({ inputUnrecordedModels: ['gpt-5.4-mini'] })).toEqual(['828 + ?', '10 + ? in · 818 out']);
  });
});

describe('ModelsTable', () => {
  it('lists the costliest model first, or the one with most tokens when the page shows tokens', () => {
    const model = (name: string, inputTokens: number, costUsd: number) => ({
      ...none,
      model: name,
      inputTokens,
      costUsd,
    });
    // The API's order: by cost. A cheap model can spend the most tokens (Haiku beside Opus).
    const usage = { models: [model('claude-opus-4-5', 100, 9), model('claude-haiku-4-5', 5000, 1)] };
    const names = (metric: 'cost' | 'tokens') =>
      [
        ...renderToStaticMarkup(
          <ModelsTable usage={usage as unknown as UsageResponse} colorOf={() => '#000'} metric={metric} />,
        ).matchAll(/(claude-[a-z]+)/g),
      ].map((m) => m[1]);
    expect(names('cost')).toEqual(['claude-opus', 'claude-haiku']);
    expect(names('tokens')).toEqual(['claude-haiku', 'claude-opus']);
  });
});

describe('UsageBlocks', () => {
  const block = (i: number) => ({
    ...none,
    start: new Date(Date.UTC(2026, 10, 1, i * 5)).toISOString(),
    end: new Date(Date.UTC(2026, 10, 1, i * 5 + 5)).toISOString(),
    isActive: false,
    remainingMs: 0,
  });
  const usage = { totals: none, blocks: Array.from({ length: 30 }, (_, i) => block(i)), blocksTotal: 42 };
  const shown = (team: boolean) =>
    renderToStaticMarkup(<UsageBlocks usage={usage as unknown as UsageResponse} team={team} />);

  it('says how many blocks it leaves out, and on a laptop the command that lists them all', () => {
    expect(shown(false)).toContain('The 30 most recent of 42 blocks');
    expect(shown(false)).toContain('<code>agentdash usage blocks</code> lists them all');
  });

  it("names no laptop command on a team server: it would list one laptop's blocks, not the team's", () => {
    expect(shown(true)).toContain('The 30 most recent of 42 blocks');
    expect(shown(true)).not.toContain('agentdash usage blocks');
  });

  it("writes a block's end as its hour, its date only when it is another day's (a past year's block too)", () => {
    // the suites run in UTC; this year is the test's clock's
    const pieces = (start: string, end: string) => {
      const one = { totals: none, blocks: [{ ...none, start, end, isActive: false, remainingMs: 0 }], blocksTotal: 1 };
      const html = renderToStaticMarkup(<UsageBlocks usage={one as unknown as UsageResponse} />);
      return [...html.matchAll(/<span class="usage-piece">([^<]*)<\/span>/g)].map((m) => m[1]);
    };
    expect(pieces('2025-03-04T05:00:00.000Z', '2025-03-04T10:00:00.000Z')).toEqual(['Mar 4, 2025 05:00 –', '10:00']);
    expect(pieces('2025-03-04T21:00:00.000Z', '2025-03-05T02:00:00.000Z')).toEqual([
      'Mar 4, 2025 21:00 –',
      'Mar 5, 2025 02:00',
    ]);
    const year = new Date().getFullYear();
    expect(pieces(`${year}-03-04T05:00:00.000Z`, `${year}-03-04T10:00:00.000Z`)).toEqual(['Mar 4 05:00 –', '10:00']);
  });

  it("asks for a person where the responses are several people's: a block sums one person's", () => {
    const mixed = { totals: none, blocks: [], blocksTotal: 0, blocksByPerson: true };
    const html = renderToStaticMarkup(<UsageBlocks usage={mixed as unknown as UsageResponse} team />);
    expect(html).toContain('own: choose a person to list their blocks.');
    expect(html).not.toContain('<table');
  });
});

describe('AgentsTable', () => {
  const agent = (id: string, responses: number, inputTokens: number, costUsd: number | null) => ({
    ...none,
    agent: id,
    responses,
    inputTokens,
    costUsd,
  });
  const shown = (agents: readonly unknown[]) =>
    renderToStaticMarkup(<AgentsTable usage={{ totals: none, blocks: [], agents } as unknown as UsageResponse} />);

  it("gives each agent's responses, tokens and cost as the other usage tables do, figures right-aligned", () => {
    const html = shown([agent('claude', 1200, 3_400_000, 12.5), agent('codex', 40, 9000, null)]);
    expect(html).toContain('<h2>By agent</h2>');
    const figures = [...html.matchAll(/<td class="num[^"]*">([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(figures).toEqual(['1,200', '3.4M', '$12.50', '40', '9,000', 'unknown']);
  });

  it('is left out with one agent: the cards above already say it all', () => {
    expect(shown([agent('claude', 3, 10, 1)])).toBe('');
  });
});
