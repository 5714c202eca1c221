import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../data/types';
import { SessionStats } from './SessionStats';

/** A session's header figures, with `warmups` cache warm-up requests (core's `isWarmup`) and `subagents` subagents. */
const detailOf = (warmups: number, subagents: number) =>
  ({
    session: {
      startedAt: '2026-11-21T20:19:35.000Z',
      durationMs: 1700,
      time: null,
      messages: 4,
      toolCalls: 1,
      errors: 0,
      expectedErrors: 0,
      costUsd: 0.036,
      unpricedModels: [],
      models: ['claude-sonnet-4-5-20250929'],
      versions: ['2.0.76'],
    },
    usageByModel: {},
    subagents: Array.from({ length: subagents }, (_, i) => ({ key: `a${i}` })),
    counts: { warmups },
    copiedFrom: [],
  }) as unknown as SessionDetail;

describe('the session header and the client cache warm-ups', () => {
  it('says how many warm-up requests the session made, quietly, and counts no subagent for them', () => {
    const html = renderToStaticMarkup(<SessionStats detail={detailOf(2, 0)} />);
    expect(html.match(/<span class="dim"[^>]*> \((\d+) warm-up requests\)<\/span>/)?.[1]).toBe('2');
    expect(html).not.toMatch(/<\/b> subagent/);
    const one = renderToStaticMarkup(<SessionStats detail={detailOf(1, 1)} />);
    expect(one).toMatch(/\(1 warm-up request\)/);
    expect(one).toMatch(/<b>1<\/b> subagent</);
    expect(renderToStaticMarkup(<SessionStats detail={detailOf(0, 0)} />)).not.toMatch(/warm-up/);
  });
});

describe('the session header of a fork or resume', () => {
  const copied = (sameSession: boolean) =>
    ({
      ...detailOf(0, 0),
      copiedFrom: [{ ref: 'aaaa', title: null, sameSession, calls: 1, errors: 0, expectedErrors: 0, responses: 1 }],
    }) as unknown as SessionDetail;
  const wallTitle = (detail: SessionDetail) =>
    renderToStaticMarkup(<SessionStats detail={detail} />).match(/<span title="([^"]*)" data-testid="wall-time"/)?.[1];

  it("says its wall time is its own records', after the conversation it copied; not for another copy of itself", () => {
    expect(wallTitle(copied(false))).toBe(
      'Wall time: its own records, first to last, after the conversation it copied',
    );
    expect(wallTitle(copied(true))).toBe('Wall time: first record to last');
    expect(wallTitle(detailOf(0, 0))).toBe('Wall time: first record to last');
  });
});

describe('the session header of responses that recorded no usage', () => {
  it('says their tokens are unknown, not 0 (a legacy Codex rollout)', () => {
    // four messages: two prompts, two responses
    const none = {
      ...detailOf(0, 0),
      counts: { warmups: 0, prompts: 2, assistantMessages: 2 },
    } as unknown as SessionDetail;
    const html = renderToStaticMarkup(<SessionStats detail={none} />);
    expect(html).toContain('tokens unknown: none of its 2 responses recorded usage');
    expect(html).not.toMatch(/<b>0<\/b> in/);
  });

  it("counts no response of a request that failed: its API-error answer is the client's, no usage unknown", () => {
    const base = detailOf(0, 0);
    const failed = {
      ...base,
      session: { ...base.session, messages: 1, apiErrors: 1 },
      counts: { warmups: 0, prompts: 1, assistantMessages: 1, failedRequests: 1, retriedRequests: 1 },
    } as unknown as SessionDetail;
    const html = renderToStaticMarkup(<SessionStats detail={failed} />);
    expect(html).not.toContain('unknown: none of its');
    expect(html.replace(/<[^>]+>/g, '')).toContain('1 failed request +1 retried');
  });
});
