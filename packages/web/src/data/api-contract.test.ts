/**
 * The client is typed by the route table of `@agentdash/api`: the `@ts-expect-error` lines below are compile errors
 * (a path the API does not have, a missing or unknown path value, a query field a route does not take or of the wrong
 * type, a field an answer lacks). `npm run typecheck` fails if any of them compiles, i.e. if the contract loosens.
 */
import { fillPath } from '@agentdash/api';
import { describe, expect, it } from 'vitest';
import { api, apiGet } from './client';

/** Never called: only compiled. */
export function contract(signal: AbortSignal) {
  // @ts-expect-error: no such route
  void apiGet('/sesions', {}, {}, signal);
  // @ts-expect-error: the session's id is missing
  void apiGet('/sessions/:id', {}, {}, signal);
  // @ts-expect-error: a path value the route does not have
  void apiGet('/sessions/:id/errors', { id: 'a', callId: 'b' }, {}, signal);
  // @ts-expect-error: the list takes `limit`, not `limt`
  void apiGet('/sessions', {}, { limt: 5 }, signal);
  // @ts-expect-error: `limit` is a number
  void apiGet('/sessions', {}, { limit: '5' }, signal);
  // @ts-expect-error: not one of the sorts
  void api.sessions({ sort: 'mood' });
  // @ts-expect-error: not an agent
  void api.stats({ agent: 'robot' });
  // @ts-expect-error: not a call status
  void api.calls({ status: 'fine' });
  // @ts-expect-error: find needs its query
  void apiGet('/sessions/:id/find', { id: 'a' }, {}, signal);
  // @ts-expect-error: the header route takes no query
  void apiGet('/sessions/:id', { id: 'a' }, { offset: 1 }, signal);
  void apiGet('/sessions', {}, { limit: 5, sort: 'costUsd', dir: 'asc', hasErrors: true }, signal).then((page) => {
    const total: number = page.total;
    // @ts-expect-error: the answer has `sessions`, not `rows`
    void page.rows;
    return total;
  });
  void api.session('a').then((detail) => {
    // @ts-expect-error: `totalEvents` is a number
    const events: string = detail.totalEvents;
    return events;
  });
}

describe('the route table', () => {
  it('fills and encodes path values', () => {
    expect(fillPath('/sessions/:id/calls/:callId', { id: 'a/b@c', callId: 'toolu_1#2' })).toBe(
      '/sessions/a%2Fb%40c/calls/toolu_1%232',
    );
    expect(fillPath('/health', {})).toBe('/health');
  });
});
