/**
 * `GET /api/sessions/:id/export?format=…&redact=…` and `/export.html`: what `agentdash export --format F` writes
 * (html: one self-contained file), secrets redacted unless `redact=0`.
 */
import { Hono } from 'hono';
import type { AppServices } from '../app-services.js';
import type { ExportFormat } from '../export-formats.js';
import { exportAssetsBuilt } from '../export-html.js';
import { HttpError } from '../http-error.js';
import { toSessionRow } from '../mapping.js';
import { exportDownload } from '../versions-routes.js';
import { query } from './query.js';
import { exportQuery } from './schemas.js';

export function exportRoutes(services: AppServices) {
  const download = async (ref: string, format: ExportFormat, redactParam: boolean) => {
    const summary = await services.foundOf(ref);
    const row = services.shown(toSessionRow(summary));
    // A shared screen never downloads secrets.
    const redact = services.redact || redactParam;
    if (format === 'html' && !exportAssetsBuilt(services.assetsDir))
      throw new HttpError(503, 'the HTML export viewer is not built: run npm run build');
    // Loaded, redacted and written where sessions live (the session worker), a batch at a time as the download reads.
    const out = await services.sessions.exportSession(row.id, format, summary, services.assetsDir, redact);
    return exportDownload(out, format, `agentdash-${row.id.slice(0, 8)}`);
  };
  return new Hono()
    .get('/sessions/:id/export', query(exportQuery), (c) => {
      const { format, redact } = c.req.valid('query');
      return download(c.req.param('id'), format, redact);
    })
    .get('/sessions/:id/export.html', query(exportQuery.pick({ redact: true })), (c) =>
      download(c.req.param('id'), 'html', c.req.valid('query').redact),
    );
}
