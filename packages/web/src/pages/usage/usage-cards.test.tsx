import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { UsageResponse } from '../../data/types';
import { UsageCards } from './UsageCards';

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
});
