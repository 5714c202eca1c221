/**
 * Analytics over every served session: `GET /api/stats` (per tool, over time, per project), `/usage` (priced
 * responses per day, model, project) and `/calls` (the calls a drill-down lists).
 */
import { Hono } from 'hono';
import type { CallRowDto, CallsResponse } from '../api-types.js';
import { type AppServices, clean } from '../app-services.js';
import { toCallRow } from '../mapping.js';
import { RawJson, sendJson } from '../raw-json.js';
import { query } from './query.js';
import { callsQuery, statsQuery, usageQuery } from './schemas.js';

/**
 * How long statistics and usage are kept while sessions change (see `ListCache.get`): recomputed for every change
 * under many dashboards they kept the query worker busy. The dashboard reloads its analytics pages at most every 5 s
 * while sessions change (`use-live-tick.ts`).
 */
const ANALYTICS_KEEP_MS = 5000;

export function analyticsRoutes(services: AppServices) {
  const { listCache, queries, scope, shown } = services;
  return new Hono()
    .get('/stats', query(statsQuery), async (c) => {
      const filter = clean(c.req.valid('query'));
      return sendJson(
        c,
        await listCache.get(
          `stats${new URL(c.req.url).search}`,
          async () => RawJson.of(shown(await queries.statsResponse({ ...filter, ...scope }))),
          ANALYTICS_KEEP_MS,
        ),
      );
    })
    .get('/usage', query(usageQuery), async (c) => {
      const { tz, ...filter } = c.req.valid('query');
      return sendJson(
        c,
        await listCache.get(
          `usage${new URL(c.req.url).search}`,
          async () => RawJson.of(shown(await queries.usageResponse({ ...clean(filter), ...scope }, Date.now(), tz))),
          ANALYTICS_KEEP_MS,
        ),
      );
    })
    .get('/calls', query(callsQuery), async (c) => {
      const rows = await queries.calls({ ...clean(c.req.valid('query')), ...scope });
      // Only the sessions these calls belong to, not the whole list, in one query: by session id (which may name a
      // few sessions: fuzzed or copied homes), each row then found by the reference that names it alone.
      const ids = [...new Set(rows.map((r) => r.sessionId))];
      const byId = new Map(ids.length === 0 ? [] : (await services.allRows({ ids })).map((r) => [r.id, r]));
      const calls: CallRowDto[] = rows.map((r) => toCallRow(r, byId));
      const body: CallsResponse = { calls };
      return c.json(shown(body));
    });
}
