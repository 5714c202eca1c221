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

  it('says them in one disclosure whose summary is a line, one note or several', () => {
    const one = renderToStaticMarkup(<CostNotes totals={totals({ unpricedModels: ['x-model'] })} />);
    expect(one).toMatch(/^<details class="cost-notes" data-testid="cost-notes"><summary>/);
    expect(one).toContain('(1 note on what they leave out)');
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
    expect(three).toContain('(3 notes on what they leave out)');
    expect([...three.matchAll(/data-testid="([\w-]+-warning)"/g)].map((m) => m[1])).toEqual([
      'unpriced-warning',
      'input-unrecorded-warning',
      'output-unrecorded-warning',
    ]);
  });
});
