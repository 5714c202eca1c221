/**
 * The team server's HTTP app: the push routes (`/api/team/v1`) and the dashboard with its JSON API over every pushed
 * session. Every request carries a team token, checked against the database each time.
 */
import { type Context, Hono } from 'hono';
import type { Sql } from '../pg/db.js';
import type { TeamEnv } from './auth.js';
import { pushRoutes } from './push-routes.js';
import { TeamHttpError, teamErrorResponse } from './team-http.js';

export interface TeamAppDeps {
  readonly sql: Sql;
  /** The dashboard and its API, mounted after the push routes (`dashboard.ts`). */
  readonly dashboard?: Hono<TeamEnv> | undefined;
}

function onError(error: Error, c: Context): Response {
  if (error instanceof TeamHttpError) return teamErrorResponse(c, error);
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return c.json({ success: false, error: error.message }, status as 400);
  }
  console.error('agentdash team server: request failed:', error);
  return c.json({ success: false, error: 'internal error' }, 500);
}

export function createTeamApp(deps: TeamAppDeps): Hono<TeamEnv> {
  const app = new Hono<TeamEnv>();
  app.onError(onError);
  app.notFound((c) => c.json({ success: false, error: 'not found' }, 404));
  const push = pushRoutes(deps.sql);
  push.onError(onError);
  app.route('/api/team/v1', push);
  if (deps.dashboard) app.route('/', deps.dashboard);
  return app;
}
