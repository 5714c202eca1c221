/**
 * A period with no usage (a review: `#/usage?range=7d` with nothing in the last 7 days): the charts said "No usage.",
 * while By model, Top sessions by cost and 5-hour blocks stood as bare table heads. Each says so now; while the answer
 * loads, the tables keep their heads (their place on the page).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../data/types';
import { ModelsTable, TopSessions, UsageBlocks } from './UsageTables';

const empty = { models: [], topSessions: [], blocks: [], blocksTotal: 0 } as unknown as UsageResponse;

const tables = (usage: UsageResponse | undefined) =>
  [
    <ModelsTable key="m" usage={usage} colorOf={() => '#000'} />,
    <TopSessions key="t" usage={usage} />,
    <UsageBlocks key="b" usage={usage} />,
  ].map((table) => renderToStaticMarkup(table));

describe('the usage tables of a period with no usage', () => {
  it('each says there is none, with no table head', () => {
    const [models, top, blocks] = tables(empty);
    expect(models).toContain('No usage.');
    expect(top).toContain('No sessions.');
    expect(blocks).toContain('No blocks.');
    for (const html of [models, top, blocks]) expect(html).not.toContain('<thead>');
  });

  it('keep their heads while the answer loads, saying nothing yet', () => {
    for (const html of tables(undefined)) {
      expect(html).toContain('<thead>');
      expect(html).not.toContain('usage-empty');
    }
  });
});
