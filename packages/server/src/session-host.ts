/**
 * Where loaded sessions live and the per-session routes run: in this thread (tests, `:memory:` indexes) or in a
 * worker thread (`worker-session-host.ts`), so parsing a huge transcript never blocks the server's event loop.
 */
import type { ParseIssue } from '@agentdash/core';
import { fileActivityOf } from '@agentdash/core/present';
import { waterfallOf } from '@agentdash/core/time';
import type { AgentIndex } from './agent-index.js';
import type {
  CallDto,
  EventsPage,
  FilesResponse,
  FindResponse,
  SessionDetail,
  SessionErrorsResponse,
  SessionRow,
} from './api-types.js';
import type { ExportFormat } from './export-formats.js';
import { headerUsageByModel } from './header-usage.js';
import { sessionNotFound, toHttpError } from './http-error.js';
import type { Answer } from './raw-json.js';
import { shownAnswer, shownSession } from './redaction.js';
import { openSessionExport, openStreamExport, type SessionExport, streamedFormats } from './session-export.js';
import { findInSession, sessionErrors } from './session-find.js';
import { streamsBetter } from './session-json.js';
import { SessionView } from './session-view.js';

/** The per-session work of the API. Every method loads the session first if it is not loaded yet. */
export interface SessionHost {
  /** Answers may come as JSON text already (serialized in the worker thread, not on the event loop). */
  detail(row: SessionRow): Promise<Answer<SessionDetail>>;
  page(
    sessionId: string,
    agent: string | undefined,
    offset: number,
    limit: number,
    all: boolean,
  ): Promise<Answer<EventsPage> | undefined>;
  /** A call whole, or each of its texts cut at `chars` characters. */
  call(sessionId: string, callId: string, chars?: number): Promise<Answer<CallDto> | undefined>;
  locate(sessionId: string, callId: string): Promise<{ index: number; expand: string[] } | undefined>;
  /** Every errored call of the session, in timeline order (`GET /api/sessions/:id/errors`). */
  errors(sessionId: string): Promise<SessionErrorsResponse>;
  /** Find-in-session (`GET /api/sessions/:id/find?q=`). */
  find(sessionId: string, query: string): Promise<FindResponse>;
  /** The session's main-thread time as a waterfall (`GET /api/sessions/:id/waterfall`). */
  waterfall(sessionId: string): Promise<Answer<ReturnType<typeof waterfallOf>>>;
  /** The files the session's file tools touched, with their calls (`GET /api/sessions/:id/files`). */
  files(sessionId: string): Promise<Answer<FilesResponse>>;
  /**
   * The session exported in `format` (`GET /api/sessions/:id/export?format=`; HTML: one self-contained file),
   * written a batch at a time; `summary` is the index's row, `assetsDir` holds the built viewer.
   */
  exportSession(
    sessionId: string,
    format: ExportFormat,
    summary: unknown,
    assetsDir: string,
    redact: boolean,
  ): Promise<SessionExport>;
  /**
   * The issues the load finds that the index stores none of (`READ_ISSUES`): files that cannot be read now, and what
   * pairing finds over the session's kept records (the header counts those too).
   */
  readIssues(sessionId: string): Promise<readonly ParseIssue[]>;
  /** Whether the session is loaded (its routes answer without parsing). */
  isLoaded(sessionId: string): boolean;
  /** Forget a session (its files changed), or every session. */
  invalidate(sessionId?: string): void;
  close(): Promise<void>;
}

// Many small sessions may stay loaded (browsing back and forth, several tabs, many users); the byte budget bounds
// the memory.
const CACHE_SIZE = 256;

/**
 * Issues only a load finds (the index's header counts them over its rows, core's `ResultPairing`): a file that cannot
 * be read now, a result whose call is nowhere in the session, a second result of an id, a call id reused across files.
 */
const READ_ISSUES: ReadonlySet<string> = new Set([
  'unreadable_file',
  'orphan_result',
  'duplicate_result',
  'reused_call_id',
]);
/** Transcript bytes the kept sessions may add up to (a parsed session takes a few times its bytes in memory). */
export const CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The last few loaded sessions, most recently used last; one load at a time per session. At most `size` sessions
 * and, beyond the most recent one, at most `bytes` of transcript among them, so two huge sessions are not kept
 * side by side.
 */
export class SessionViews {
  private readonly views = new Map<string, { readonly view: SessionView; readonly bytes: number }>();
  private readonly loading = new Map<string, Promise<SessionView>>();
  private generation = 0;

  constructor(
    private readonly index: Pick<AgentIndex, 'loadSession' | 'sessionFiles'>,
    private readonly size = CACHE_SIZE,
    private readonly bytes = CACHE_BYTES,
    /** `serve --redact`: every secret of a session redacted when it is loaded, else those in its identifiers. */
    readonly redact = false,
  ) {}

  has(sessionId: string): boolean {
    return this.views.has(sessionId);
  }

  /** The loaded sessions' ids. */
  keys(): string[] {
    return [...this.views.keys()];
  }

  /** Counts the changes of the loaded set (a session kept, dropped or forgotten), so a mirror knows it is stale. */
  changes = 0;

  async get(sessionId: string): Promise<SessionView> {
    const hit = this.views.get(sessionId);
    if (hit) {
      this.views.delete(sessionId);
      this.views.set(sessionId, hit);
      return hit.view;
    }
    const pending = this.loading.get(sessionId);
    if (pending) return pending;
    const generation = this.generation;
    const load = this.index
      .loadSession(sessionId)
      .then(
        (session) => {
          // Redacted once, as it is loaded: every page, call, find and waterfall of it is then made from the copy.
          const view = new SessionView(shownSession(session, this.redact), session);
          // a view loaded before an invalidation may be stale: serve it to its callers, do not keep it
          if (generation === this.generation) this.keep(sessionId, view);
          return view;
        },
        (error: unknown) => {
          // an operational error says itself (a transcript too large to read: 422); any other failure to load is
          // a session not there (its files gone meanwhile)
          throw toHttpError(error) ?? sessionNotFound();
        },
      )
      .finally(() => this.loading.delete(sessionId));
    this.loading.set(sessionId, load);
    return load;
  }

  invalidate(sessionId?: string): void {
    this.generation++;
    this.changes++;
    if (sessionId === undefined) this.views.clear();
    else this.views.delete(sessionId);
    this.loading.clear();
  }

  private keep(sessionId: string, view: SessionView): void {
    const files = this.index.sessionFiles(sessionId);
    const bytes = files ? [files.main, ...files.subagents].reduce((n, f) => n + (f?.size ?? 0), 0) : 0;
    this.views.set(sessionId, { view, bytes });
    this.changes++;
    let total = [...this.views.values()].reduce((n, v) => n + v.bytes, 0);
    while (this.views.size > 1 && (this.views.size > this.size || total > this.bytes)) {
      const [oldest, entry] = this.views.entries().next().value ?? [];
      if (oldest === undefined || entry === undefined) break;
      this.views.delete(oldest);
      total -= entry.bytes;
    }
  }
}

/** The per-session routes over a view cache, in this thread. */
export function createLocalSessionHost(
  index: Pick<AgentIndex, 'loadSession' | 'sessionFiles'> &
    Partial<Pick<AgentIndex, 'streamSession' | 'sessionBytes' | 'sessionCopies' | 'getSession' | 'sessionOwnFrom'>>,
  views: SessionViews = new SessionViews(index),
): SessionHost {
  return {
    // The copies, and so what the session owns, are the index's to tell (the header from the index gives the same;
    // session-copies.ts, session-usage.ts).
    detail: async (row) => {
      const detail = (await views.get(row.id)).detail(row);
      if (!index.sessionCopies) return detail;
      const found = index.getSession?.(row.id);
      return {
        ...detail,
        ...(found === undefined ? {} : { usageByModel: headerUsageByModel(found) }),
        // As the header from the index is shown (`shown` in the route): their titles and references redacted.
        copiedFrom: shownAnswer(index.sessionCopies(row.id), views.redact),
      };
    },
    page: async (sessionId, agent, offset, limit, all) =>
      (await views.get(sessionId)).pageText(agent, offset, limit, all),
    call: async (sessionId, callId, chars) => {
      const view = await views.get(sessionId);
      const call = view.callsById.get(callId);
      return call ? view.callDto(call, chars ?? true) : undefined;
    },
    locate: async (sessionId, callId) => (await views.get(sessionId)).locate(callId),
    errors: async (sessionId) => ({ errors: sessionErrors(await views.get(sessionId)) }),
    find: async (sessionId, query) => ({ query, ...findInSession(await views.get(sessionId), query) }),
    // a fork's or resume's drawn from its own records, as its time counts them
    waterfall: async (sessionId) =>
      waterfallOf((await views.get(sessionId)).session, index.sessionOwnFrom?.(sessionId)),
    files: async (sessionId) => {
      const { session } = await views.get(sessionId);
      return { projectPath: session.projectPath ?? null, files: fileActivityOf(session.calls, session.projectPath) };
    },
    exportSession: async (sessionId, format, summary, assetsDir, redact) =>
      // A session not loaded is written as it is read, never held (a download of a huge session's JSON).
      index.streamSession &&
      !views.has(sessionId) &&
      streamedFormats.has(format) &&
      streamsBetter(index.sessionBytes?.(sessionId) ?? 0)
        ? openStreamExport(await index.streamSession(sessionId), format, summary, assetsDir, redact)
        : openSessionExport((await views.get(sessionId)).source, format, summary, assetsDir, redact),
    readIssues: async (sessionId) => (await views.get(sessionId)).session.issues.filter((i) => READ_ISSUES.has(i.code)),
    isLoaded: (sessionId) => views.has(sessionId),
    invalidate: (sessionId) => views.invalidate(sessionId),
    close: async () => views.invalidate(),
  };
}
