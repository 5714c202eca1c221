/**
 * One session as ONE self-contained HTML file: the dashboard's session page (a second build of the web app, inlined)
 * reading the session from JSON embedded in the page instead of over HTTP. No network: a Content-Security-Policy
 * in the file allows inline script and style and `data:` images only, so it works from `file://` and nothing in
 * the log can make it fetch anything. Written in pieces, so a big session is never one string; a session too big
 * to load is written as it is read (`export-html-stream.ts`), the same bytes.
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from '@agentdash/core/model';
import { fileActivityOf, oneLine, plainText } from '@agentdash/core/present';
import { type RedactionReport, redactDerived } from '@agentdash/core/secrets';
import type {
  CallDto,
  EventDto,
  FilesResponse,
  IssueDto,
  SessionDetail,
  SessionErrorHit,
  SessionRow,
} from './api-types.js';
import { agentInfos, toIssue, toSessionRow } from './mapping.js';
import { sessionErrors } from './session-find.js';
import type { CallPlace } from './session-outline.js';
import { SessionView } from './session-view.js';
import { defaultAssetsDir } from './static.js';

export interface ExportAssets {
  readonly js: string;
  readonly css: string;
}

/** What the embedded data says about redaction (shown in the page's header). */
export interface ExportRedaction {
  readonly redacted: boolean;
  /** Redactions made, and the secrets they hid, each counted once (as the `secrets` command counts them). */
  readonly total: number;
  readonly secrets: number;
  readonly summary: string;
}

/** What the page says of the redaction (`report`: what was redacted, when `redact`). */
export function exportRedaction(redact: boolean, report: RedactionReport | undefined): ExportRedaction {
  return {
    redacted: redact,
    total: report?.total ?? 0,
    secrets: report?.distinct ?? 0,
    summary: report ? report.summary() : 'not redacted',
  };
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

/** What the page embeds of a session, from a loaded session (`loadedHtmlSource`) or a streamed one. */
export interface HtmlSource {
  readonly title: string | undefined;
  detail(row: SessionRow): SessionDetail;
  readonly issues: readonly unknown[];
  /** Every errored call and where it shows (`sessionErrors`). */
  readonly errors: readonly SessionErrorHit[];
  /** What its file tools did to each file (`GET /api/sessions/:id/files`). */
  readonly files: FilesResponse;
  /** The threads: the main one (undefined), then each subagent's key. */
  readonly threads: readonly (string | undefined)[];
  /** The events of `threads[thread]` the timeline shows by default, as its pages hold them. */
  events(thread: number): Iterable<EventDto> | AsyncIterable<EventDto>;
  /** The calls cut in the pages, whole, in the order `cut` (thread, call id) met them. */
  wholeCalls(cut: readonly CutCall[]): Iterable<readonly [string, CallDto]> | AsyncIterable<readonly [string, CallDto]>;
  /** Where each call of the session shows, in the session's order. */
  places(): Iterable<readonly [string, CallPlace | undefined]>;
}

/** A call cut in a page: the index of its thread in `HtmlSource.threads`, and its id. */
export interface CutCall {
  readonly thread: number;
  readonly id: string;
}

/** The embedded data of a loaded session. */
export function loadedHtmlSource(session: Session): HtmlSource {
  const view = new SessionView(session);
  const threads = [undefined, ...session.subagents.map((s) => s.key)];
  return {
    title: session.title,
    detail: (row) => view.detail(row),
    issues: session.issues,
    errors: sessionErrors(view),
    files: { projectPath: session.projectPath ?? null, files: fileActivityOf(session.calls, session.projectPath) },
    threads,
    *events(thread) {
      for (const [i, event] of (view.thread(threads[thread], false) ?? []).entries()) yield view.eventDto(event, i);
    },
    *wholeCalls(cut) {
      for (const { id } of cut) {
        const call = view.callsById.get(id);
        if (call) yield [id, view.callDto(call, true)] as const;
      }
    },
    *places() {
      for (const call of session.calls) yield [call.id, view.locate(call.id)] as const;
    },
  };
}

/**
 * The HTML file in pieces. `summary` is the index's row of the session (for the header), `redaction` what was done
 * to the session before (the caller redacts the session; the row is redacted here when `redaction.redacted`).
 */
export function sessionHtmlChunks(
  session: Session,
  summary: unknown,
  assets: ExportAssets,
  redaction: ExportRedaction,
  exportedAt: string = new Date().toISOString(),
): AsyncGenerator<string, void, undefined> {
  return htmlChunks(loadedHtmlSource(session), summary, assets, redaction, exportedAt);
}

/** The HTML file of `source` in pieces (see `sessionHtmlChunks`). */
export async function* htmlChunks(
  source: HtmlSource,
  summary: unknown,
  assets: ExportAssets,
  redaction: ExportRedaction,
  exportedAt: string = new Date().toISOString(),
): AsyncGenerator<string, void, undefined> {
  // The index's row of the session is the one input not taken from the session (redacted by the caller): its title
  // is the first prompt's text, so it is redacted here, for every caller (the CLI's export and the server's).
  const row = redaction.redacted ? redactDerived(toSessionRow(summary)) : toSessionRow(summary);
  // the tab's title: the session's, its control sequences and characters taken out (a title of raw ESC and BEL
  // bytes showed them in the tab), on one line
  const title = `${oneLine(plainText(source.title ?? ''), Number.POSITIVE_INFINITY) || 'Untitled session'} · AgentDash export`;
  yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${CSP}">\n`;
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="dark">\n';
  yield `<title>${escapeHtml(title)}</title>\n`;
  yield `<style>${assets.css.replace(/<\/style/gi, '<\\/style')}</style>\n</head>\n<body>\n<div id="root"></div>\n`;
  yield '<script type="application/json" id="agentdash-data">{"version":1';
  yield `,"exportedAt":${embed(exportedAt)},"sessionId":${embed(row.id)},"redaction":${embed(redaction)}`;
  yield `,"agents":${embed(agentInfos().agents)}`;
  yield `,"detail":${embed(source.detail(row))}`;
  const issues: IssueDto[] = source.issues.map(toIssue);
  yield `,"issues":${embed(issues)}`;
  // Every errored call and where it shows, for error navigation offline (find runs in the page, over the threads).
  yield `,"errors":${embed(source.errors)}`;
  // The Files page offline.
  yield `,"files":${embed(source.files)}`;
  // Every thread: the main one under "", then each subagent's.
  yield ',"threads":{';
  const cut: CutCall[] = [];
  for (const [thread, key] of source.threads.entries()) {
    yield `${thread === 0 ? '' : ','}${embed(key ?? '')}:[`;
    let first = true;
    for await (const event of source.events(thread)) {
      yield first ? embed(event) : `,${embed(event)}`;
      first = false;
      if (event.kind !== 'assistant') continue;
      for (const item of event.items)
        if (item.kind === 'tool-call' && item.truncated) cut.push({ thread, id: item.id });
    }
    yield ']';
  }
  yield '}';
  // Calls cut in the pages, whole (the page's "show more"); and where each call shows (search hits, links).
  yield ',"calls":{';
  let firstCall = true;
  for await (const [id, call] of source.wholeCalls(cut)) {
    yield `${firstCall ? '' : ','}${embed(id)}:${embed(call)}`;
    firstCall = false;
  }
  yield '},"locate":{';
  let firstLocate = true;
  for (const [id, where] of source.places()) {
    if (!where || where.expand.length === 0) continue;
    yield `${firstLocate ? '' : ','}${embed(id)}:${embed(where)}`;
    firstLocate = false;
  }
  yield '}}</script>\n';
  yield `<script type="module">${assets.js.replace(/<\/script/gi, '<\\/script')}</script>\n</body>\n</html>\n`;
}
