import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../data/types';
import { CostNotes } from './CostNotes';

type Totals = UsageResponse['totals'];
const totals = (gaps: Partial<Totals>) => ({ unpricedModels: [], ...gaps }) as unknown as Totals;

describe('CostNotes', () => {
  it('says nothing while the data is on its way, or when the costs leave nothing out', () => {
    expect(renderToStaticMarkup(<CostNotes totals={undefined} />)).toBe('');
    expect(renderToStaticMarkup(<CostNotes totals={totals({})} />)).toBe('');
  });

  it('says one note as it is, and several in one disclosure of a one-line summary', () => {
    const one = renderToStaticMarkup(<CostNotes totals={totals({ unpricedModels: ['x-model'] })} />);
    expect(one).toMatch(/^<div class="warn-msg" data-testid="cost-notes"><div data-testid="unpriced-warning">/);
    expect(one).toContain('No price for x-model');
    const three = renderToStaticMarkup(
      <CostNotes
        totals={totals({
          unpricedModels: ['x-model'],
          inputUnrecordedModels: ['gpt-5'],
          outputUnrecordedModels: ['claude-sonnet-4'],
        })}
      />,
    );
    expect(three).toMatch(/^<details class="warn-msg cost-notes" data-testid="cost-notes"><summary>/);
    expect(three).toContain('(3 notes on what they leave out)');
    expect([...three.matchAll(/data-testid="([\w-]+-warning)"/g)].map((m) => m[1])).toEqual([
      'unpriced-warning',
      'input-unrecorded-warning',
      'output-unrecorded-warning',
    ]);
  });
});
