/**
 * The AgentDash HTTP app: JSON API under /api, SSE on /api/events, and the built dashboard. Each group of routes is
 * a module of its own (`routes/`, `versions-routes.ts`, `otlp/telemetry-routes.ts`) over the services they share
 * (`app-services.ts`); queries are checked by zod schemas (`routes/schemas.ts`).
 * @module
 */
import { Hono } from 'hono';
import { type AppDeps, createServices } from './app-services.js';
import { errorBodyOf, toHttpError } from './http-error.js';
import { noTelemetryRoutes, telemetryRoutes } from './otlp/telemetry-routes.js';
import { analyticsRoutes } from './routes/analytics.js';
import { exportRoutes } from './routes/export.js';
import { healthRoutes } from './routes/health.js';
import { liveRoutes } from './routes/live.js';
import { sessionRoutes } from './routes/session.js';
import { sessionsRoutes } from './routes/sessions.js';
import { hostCheck, securityHeaders, tokenCheck } from './security.js';
import { serveAsset } from './static.js';
import { versionsRoutes } from './versions-routes.js';

export type { AppDeps } from './app-services.js';
export { sseData } from './routes/live.js';

export function createApp(deps: AppDeps) {
  const services = createServices(deps);
  const { index } = services;
  const app = new Hono();

  // Every error answers with one envelope: `{ success: false, error, code?, candidates? }`, the status and code from `http-error.ts`.
  app.onError((error, c) => {
    const http = toHttpError(error);
    if (http) return c.json(errorBodyOf(http), http.status);
    console.error('agentdash: request failed:', error);
    return c.json({ success: false, error: 'internal error' }, 500);
  });
  app.notFound((c) => c.json({ success: false, error: 'not found' }, 404));

  app.use('*', securityHeaders());
  if (deps.checkHost !== false) app.use('*', hostCheck(deps.host, deps.port));
  if (deps.token !== undefined && deps.token !== '') app.use('*', tokenCheck(deps.token));

  const api = new Hono()
    .route('/telemetry', index ? telemetryRoutes(index, deps.otlp, services.roots) : noTelemetryRoutes())
    .route('/', healthRoutes(services))
    .route('/', sessionsRoutes(services))
    .route('/', sessionRoutes(services))
    .route('/', exportRoutes(services))
    .route('/', analyticsRoutes(services))
    .route('/', liveRoutes(services));
  if (index) {
    const { foundOf, shown, assetsDir, redact } = services;
    api.route('/', versionsRoutes({ index, foundOf, shown, assetsDir, redact }));
  }
  api.all('*', (c) => c.json({ success: false, error: 'not found' }, 404));

  app.route('/api', api);
  app.get('*', (c) => serveAsset(c, services.assetsDir));
  return app;
}
