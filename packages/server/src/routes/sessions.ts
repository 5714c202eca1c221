/** `GET /api/sessions`: one page of the list, or of a search's hits (`sessions-service.ts`). */
import { Hono } from 'hono';
import type { AppServices } from '../app-services.js';
import { RawJson, sendJson } from '../raw-json.js';
import { sessionsPage } from '../sessions-service.js';
import { query } from './query.js';
import { sessionsQuery } from './schemas.js';

/**
 * How long a search answer is kept while sessions change (see `ListCache.get`): under 50 dashboards and a session
 * appended to twice a second, searches recomputed for every change kept the query worker busy and every route
 * waited. The list itself (a new session shows at once) is never kept past a change.
 */
export const SEARCH_KEEP_MS = 5000;

export function sessionsRoutes(services: AppServices) {
  return new Hono().get('/sessions', query(sessionsQuery), async (c) => {
    const { q, offset, limit, sort, dir, ...filter } = c.req.valid('query');
    const scoped = (await services.coversAllSessions()) ? {} : services.scope;
    // The same page asked by many tabs (or again after a refresh of the page) is answered once until the index
    // changes: under 20 concurrent clients the list, search and statistics would otherwise queue in the worker.
    const body = await services.listCache.get(
      `sessions${new URL(c.req.url).search}`,
      async () =>
        RawJson.of(services.shown(await sessionsPage(services, { filter, q, offset, limit, sort, dir, scoped }))),
      q ? SEARCH_KEEP_MS : 0,
    );
    return sendJson(c, body);
  });
}
