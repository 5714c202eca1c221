import { describe, expect, it } from 'vitest';
import { projectValueText, topProjects } from './use-usage';

const project = (name: string, costUsd: number | null, tokens: number, unpricedModels: string[] = []) =>
  ({
    project: `/home/u/${name}`,
    responses: 1,
    inputTokens: tokens,
    outputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: 0,
    reasoningOutputTokens: 0,
    costUsd,
    unpricedModels,
  }) as never;

describe('projects chart', () => {
  // as the server gives them: costliest first
  const rows = [
    project('dear', 30, 250_000),
    project('mid', 20, 1_000),
    project('cheap', 1, 16_300_000),
    project('unpriced', null, 53_100_000, ['gemini-x']),
  ];

  it('in the tokens view, are the projects of most tokens, most first', () => {
    expect(topProjects(rows, 'tokens', 3).map((p) => [p.name, p.value])).toEqual([
      ['…/u/unpriced', 53_100_000],
      ['…/u/cheap', 16_300_000],
      ['…/u/dear', 250_000],
    ]);
  });

  it('in the cost view, are the costliest, those of no known cost last', () => {
    expect(topProjects([rows[3], ...rows.slice(0, 3)] as never, 'cost', 4).map((p) => p.value)).toEqual([
      30,
      20,
      1,
      null,
    ]);
    expect(topProjects(rows, 'cost', 4)[3]?.unpriced).toEqual(['gemini-x']);
  });

  it('says a lower bound with "+ ?" in the tooltip, as the cards and tables do (responses without input)', () => {
    const copilot = { ...(project('copilot', 0.012, 45) as object), inputUnrecordedModels: ['gpt-5.4-mini'] } as never;
    const [cost] = topProjects([copilot], 'cost', 1);
    const [tokens] = topProjects([copilot], 'tokens', 1);
    // Before: "$0.012" and "45", the whole of them.
    expect(cost && projectValueText('cost', cost)).toBe('$0.012 + ?');
    expect(tokens && projectValueText('tokens', tokens)).toBe('45 + ?');
    const [unpriced] = topProjects(rows.slice(3), 'cost', 1);
    expect(unpriced && projectValueText('cost', unpriced)).toBe('unknown');
    const [dear] = topProjects(rows.slice(0, 1), 'cost', 1);
    expect(dear && projectValueText('cost', dear)).toBe('$30.00');
  });
});
