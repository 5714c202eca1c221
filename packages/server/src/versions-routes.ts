/**
 * A session's versions over HTTP (issue 36, "nothing lost"): a transcript that lost records on disk is shown at its
 * last complete version, and the newer partial copy kept beside it in the archive can be listed and looked at.
 *
 * - `GET /api/sessions/:id/versions`: the held files, each with both copies' bytes and records and the reason.
 * - `GET /api/sessions/:id/versions/partial?format=json|envelope|markdown|html`: the session as its partial copies
 *   make it, in any export format (default json), secrets redacted unless `redact=0` (never on a shared screen).
 * @module
 */
import type { SessionSummary } from '@agentdash/index';
import { Hono } from 'hono';
import type { AgentIndex } from './agent-index.js';
import type { SessionVersionsResponse } from './api-types.js';
import { exportFormats } from './export-formats.js';
import { exportAssetsBuilt } from './export-html.js';
import { HttpError } from './http-error.js';
import { exportMedia, openSessionExport, type SessionExport } from './session-export.js';

export interface VersionsRouteDeps {
  readonly index: AgentIndex;
  /** The index's summary of the session a reference names when it is served here (else a 404). */
  readonly foundOf: (ref: string) => Promise<SessionSummary>;
  /** The answer as the server shows it (identifiers redacted on a shared screen). */
  readonly shown: <T>(value: T) => T;
  readonly assetsDir: string;
  /** `serve --redact`: exports are always redacted. */
  readonly redact: boolean;
}

/** An export as a download, a batch at a time as the client reads it (`GET …/export` writes the same). */
export function exportDownload(out: SessionExport, format: keyof typeof exportMedia, name: string): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const text = await out.next();
      if (text === undefined) controller.close();
      else controller.enqueue(encoder.encode(text));
    },
    cancel: () => out.close(),
  });
  const media = exportMedia[format];
  return new Response(body, {
    headers: {
      'Content-Type': media.type,
      'Content-Disposition': `attachment; filename="${name}.${media.ext}"`,
      'X-AgentDash-Redacted': String(out.redacted),
    },
  });
}

/** The routes, to mount on the API (`api.route('/', versionsRoutes(deps))`). */
export function versionsRoutes(deps: VersionsRouteDeps) {
  const { index, foundOf, shown } = deps;
  return new Hono()
    .get('/sessions/:id/versions', async (c) => {
      const found = await foundOf(c.req.param('id'));
      return c.json(shown(await index.sessionVersions(found.key)) satisfies SessionVersionsResponse);
    })
    .get('/sessions/:id/versions/partial', async (c) => {
      const format = exportFormats.find((f) => f === (c.req.query('format') ?? 'json'));
      if (!format) throw new HttpError(400, `format must be one of ${exportFormats.join(', ')}`);
      if (format === 'html' && !exportAssetsBuilt(deps.assetsDir))
        throw new HttpError(503, 'the HTML export viewer is not built: run npm run build');
      const found = await foundOf(c.req.param('id'));
      const session = await index.loadPartialSession(found.key);
      if (session === undefined) throw new HttpError(404, 'this session has no newer partial copy');
      const redact = deps.redact || c.req.query('redact') !== '0';
      const out = await openSessionExport(session, format, found, deps.assetsDir, redact);
      return exportDownload(out, format, `agentdash-${found.id.slice(0, 8)}-partial`);
    });
}
