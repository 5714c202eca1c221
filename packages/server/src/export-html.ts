/**
 * One session as ONE self-contained HTML file: the dashboard's session page (a second build of the web app, inlined)
 * reading the session from JSON embedded in the page instead of over HTTP. No network: a Content-Security-Policy
 * in the file allows inline script and style and `data:` images only, so it works from `file://` and nothing in
 * the log can make it fetch anything. Written in pieces, so a big session is never one string.
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from '@agentdash/core/model';
import { redactDerived } from '@agentdash/core/secrets';
import type { EventDto, IssueDto } from './api-types.js';
import { agentInfos, toIssue, toSessionRow } from './mapping.js';
import { sessionErrors } from './session-find.js';
import { SessionView } from './session-view.js';
import { defaultAssetsDir } from './static.js';

export interface ExportAssets {
  readonly js: string;
  readonly css: string;
}

/** What the embedded data says about redaction (shown in the page's header). */
export interface ExportRedaction {
  readonly redacted: boolean;
  readonly total: number;
  readonly summary: string;
}

export class ExportAssetsMissingError extends Error {
  readonly code = 'EXPORT_ASSETS_MISSING';
  constructor(dir: string) {
    super(`the HTML export viewer is not built (${dir}): run npm run build`);
  }
}

/** Whether the export viewer is built under `assetsDir` (see `readExportAssets`). */
export function exportAssetsBuilt(assetsDir: string): boolean {
  return existsSync(join(assetsDir, 'export', 'export.js'));
}

/** The export viewer's script and styles, built by `vite build -c vite.export.config.ts` into `<assets>/export/`. */
export async function readExportAssets(assetsDir: string = defaultAssetsDir()): Promise<ExportAssets> {
  const dir = join(assetsDir, 'export');
  if (!exportAssetsBuilt(assetsDir)) throw new ExportAssetsMissingError(dir);
  const [js, css] = await Promise.all([
    readFile(join(dir, 'export.js'), 'utf8'),
    existsSync(join(dir, 'export.css')) ? readFile(join(dir, 'export.css'), 'utf8') : Promise.resolve(''),
  ]);
  return { js, css };
}

/** JSON that is safe inside `<script type="application/json">`: `<` only ever occurs inside strings. */
function embed(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:";
const PAGE = 200;

/**
 * The HTML file in pieces. `summary` is the index's row of the session (for the header), `redaction` what was done
 * to the session before (the caller redacts the session; the row is redacted here when `redaction.redacted`).
 */
export function* sessionHtmlChunks(
  session: Session,
  summary: unknown,
  assets: ExportAssets,
  redaction: ExportRedaction,
  exportedAt: string = new Date().toISOString(),
): Generator<string, void, undefined> {
  const view = new SessionView(session);
  // The index's row of the session is the one input not taken from `session` (redacted by the caller): its title is
  // the first prompt's text, so it is redacted here, for every caller (the CLI's export and the server's).
  const row = redaction.redacted ? redactDerived(toSessionRow(summary)) : toSessionRow(summary);
  const title = `${session.title ?? 'Untitled session'} · AgentDash export`;
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${CSP}">\n`;
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="dark">\n';
  yield `<title>${escapeHtml(title)}</title>\n`;
  yield `<style>${assets.css.replace(/<\/style/gi, '<\\/style')}</style>\n</head>\n<body>\n<div id="root"></div>\n`;
  yield '<script type="application/json" id="agentdash-data">{"version":1';
  yield `,"exportedAt":${embed(exportedAt)},"sessionId":${embed(row.id)},"redaction":${embed(redaction)}`;
  yield `,"agents":${embed(agentInfos().agents)}`;
  yield `,"detail":${embed(view.detail(row))}`;
  const issues: IssueDto[] = session.issues.map(toIssue);
  yield `,"issues":${embed(issues)}`;
  // Every errored call and where it shows, for error navigation offline (find runs in the page, over the threads).
  yield `,"errors":${embed(sessionErrors(view))}`;
  // Every thread: the main one under "", then each subagent's, page by page.
  yield ',"threads":{';
  const keys: (string | undefined)[] = [undefined, ...session.subagents.map((s) => s.key)];
  const truncated: string[] = [];
  let firstThread = true;
  for (const key of keys) {
    const total = view.thread(key, false)?.length ?? 0;
    yield `${firstThread ? '' : ','}${embed(key ?? '')}:[`;
    firstThread = false;
    for (let offset = 0; offset < total; offset += PAGE) {
      const page = view.page(key, offset, PAGE, false);
      if (!page) break;
      yield page.events.map((e: EventDto) => embed(e)).join(',') + (offset + PAGE < total ? ',' : '');
      for (const e of page.events) {
        if (e.kind !== 'assistant') continue;
        for (const item of e.items) if (item.kind === 'tool-call' && item.truncated) truncated.push(item.id);
      }
    }
    yield ']';
  }
  yield '}';
  // Calls cut in the pages, whole (the page's "show more"); and where each call shows (search hits, links).
  yield ',"calls":{';
  let firstCall = true;
  for (const id of truncated) {
    const call = view.callsById.get(id);
    if (!call) continue;
    yield `${firstCall ? '' : ','}${embed(id)}:${embed(view.callDto(call, true))}`;
    firstCall = false;
  }
  yield '},"locate":{';
  let firstLocate = true;
  for (const call of session.calls) {
    const where = view.locate(call.id);
    if (!where || where.expand.length === 0) continue;
    yield `${firstLocate ? '' : ','}${embed(call.id)}:${embed(where)}`;
    firstLocate = false;
  }
  yield '}}</script>\n';
  yield `<script type="module">${assets.js.replace(/<\/script/gi, '<\\/script')}</script>\n</body>\n</html>\n`;
}
