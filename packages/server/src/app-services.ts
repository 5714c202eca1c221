/**
 * What every route of the app shares: where queries run and sessions load, the answers kept until the index changes,
 * the served scope, redaction, and the lookup of the session a reference names. `createApp` makes one and hands it
 * to each route module (`routes/`).
 * @module
 */
import { resolve } from 'node:path';
import type { SessionSummary } from '@agentdash/index';
import { type AgentIndex, type IndexFilter, isUnderAny } from './agent-index.js';
import type { FolderWithoutTranscripts, HealthResponse, IndexStatus, SessionRow } from './api-types.js';
import { sessionNotFound, toHttpError } from './http-error.js';
import { type IndexQueries, localQueries } from './index-queries.js';
import { readyStatus } from './index-state.js';
import { ListCache } from './list-cache.js';
import type { LiveEvents } from './live.js';
import { toSessionRow } from './mapping.js';
import type { OtlpState } from './otlp/telemetry-routes.js';
import { shownAnswer } from './redaction.js';
import { createLocalSessionHost, type SessionHost, SessionViews } from './session-host.js';
import { defaultAssetsDir } from './static.js';

export interface AppDeps {
  /** The local index; a team server passes `queries`, `sessions` and `dataVersion` instead. */
  readonly index?: AgentIndex | undefined;
  /** Changes whenever the data may have (default: the index's `dataVersion`): cached answers under another are stale. */
  readonly dataVersion?: (() => string) | undefined;
  /** Check the Host header (DNS rebinding; default true). A team server, where every request has a token, does not. */
  readonly checkHost?: boolean | undefined;
  /** A team server (`agentdash serve --team`): health says so, with the sharing tiers its sessions hold. */
  readonly team?: { readonly tiers: () => Promise<NonNullable<HealthResponse['tiers']>> } | undefined;
  readonly paths: readonly string[];
  readonly host: string;
  readonly port: number;
  /** The paths are the bundled sample sessions (`HealthResponse.samples`). */
  readonly samples?: boolean | undefined;
  /** The folders named that hold no transcript; undefined until looked at (`HealthResponse.noTranscripts`). */
  readonly noTranscripts?: (() => readonly FolderWithoutTranscripts[] | undefined) | undefined;
  readonly token?: string | undefined;
  readonly assetsDir?: string | undefined;
  readonly events?: LiveEvents | undefined;
  /** The first index build's progress; without it the index counts as ready. */
  readonly indexStatus?: (() => IndexStatus) | undefined;
  /** Where the index queries run (a worker thread in `startServer`); default: in this thread. */
  readonly queries?: IndexQueries | undefined;
  /** Where sessions are loaded and paged (a worker thread in `startServer`); default: in this thread. */
  readonly sessions?: SessionHost | undefined;
  /**
   * `serve --redact` (screen sharing): every secret in every answer is redacted, content included; HTML exports are
   * always redacted. Without it only identifiers (titles, project paths, cwd, branches, file paths) are.
   * `sessions` must be made with the same setting.
   */
  readonly redact?: boolean | undefined;
  /** `serve`'s OTLP receiver: where it listens, or why it does not (`GET /api/telemetry/setup`). */
  readonly otlp?: OtlpState | undefined;
}

export interface AppServices {
  readonly deps: AppDeps;
  readonly index: AgentIndex | undefined;
  readonly queries: IndexQueries;
  readonly sessions: SessionHost;
  readonly listCache: ListCache;
  /** The served paths, resolved; empty: everything the index holds. */
  readonly roots: string[];
  /** The filter that keeps a query to the served paths. */
  readonly scope: { readonly paths?: string[] };
  readonly redact: boolean;
  readonly assetsDir: string;
  readonly indexStatus: () => IndexStatus;
  /** Every answer goes out through this (docs/secrets.md); session pages are redacted where sessions are loaded. */
  shown<T>(value: T): T;
  /** The index's summary of the session a reference names, if it is served here (else a 404). */
  foundOf(ref: string): Promise<SessionSummary>;
  /** `foundOf`'s session as a list row, as shown. */
  summaryOf(ref: string): Promise<SessionRow>;
  /** Whether every session of the index is in scope (the usual case): queries then need not check each one's files. */
  coversAllSessions(): Promise<boolean>;
  /** The rows of the sessions `filter` selects in scope, as shown. */
  allRows(filter?: IndexFilter): Promise<SessionRow[]>;
}

// Session references (`<id>@<folder>`, keys) and synthetic call ids (`<uuid>#<n>`) hold more than [\w.:-];
// they are only ever looked up as SQL parameters and map keys.
export const ID = /^\P{Cc}{1,1000}$/u;

/** The filter without its absent fields (they would otherwise count in cache keys). */
export function clean<T extends object>(filter: T): T {
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as T;
}

export function createServices(deps: AppDeps): AppServices {
  const index = deps.index;
  const needIndex = (): AgentIndex => {
    if (!index) throw new Error('createApp needs an index, or queries, sessions and dataVersion');
    return index;
  };
  const roots = deps.paths.map((p) => resolve(p));
  const scope = roots.length > 0 ? { paths: roots } : {};
  const redact = deps.redact === true;
  const sessions =
    deps.sessions ?? createLocalSessionHost(needIndex(), new SessionViews(needIndex(), undefined, undefined, redact));
  const shown = <T>(value: T): T => shownAnswer(value, redact);
  const queries = deps.queries ?? localQueries(needIndex());
  const dataVersion = deps.dataVersion ?? (() => needIndex().dataVersion());
  const started = Date.now();
  const indexStatus = deps.indexStatus ?? (() => readyStatus(started));
  const listCache = new ListCache(10_000, Date.now, () => indexStatus().state === 'indexing', dataVersion);

  // A search answer kept past a change is dropped later: then the list is said to have changed, so the dashboards
  // showing it ask again and get the fresh one.
  let keptTimer: NodeJS.Timeout | undefined;
  listCache.onKeptServed = (until) => {
    if (keptTimer || !deps.events) return;
    const events = deps.events;
    keptTimer = setTimeout(
      () => {
        keptTimer = undefined;
        events.publish({ type: 'sessions-changed' });
      },
      Math.max(0, until - Date.now()) + 10,
    );
    keptTimer.unref();
  };
  deps.events?.subscribe((message) => {
    if (message.type !== 'hello') listCache.clear();
    if (message.type === 'session-updated') sessions.invalidate(message.sessionId);
    // Sessions loaded while the first build ran may miss files read since.
    if (message.type === 'index-progress' && message.index.state === 'ready') sessions.invalidate();
  });

  // Checking costs a pass over every session's files, so it is done again only when the number of sessions changes,
  // not after every append to a live session (seconds per change under load).
  let covers: { readonly total: number; readonly value: Promise<boolean> } | undefined;
  const coversAllSessions = async (): Promise<boolean> => {
    if (roots.length === 0) return true;
    const { total } = await listCache.get('totals:{}', () => queries.sessionTotals({}));
    if (covers?.total !== total) {
      const value = queries.sessionTotals(scope).then((inScope) => inScope.total === total);
      covers = { total, value };
      value.catch(() => {
        if (covers?.value === value) covers = undefined;
      });
    }
    return covers.value;
  };

  const allRows = async (filter: IndexFilter = {}): Promise<SessionRow[]> =>
    (await queries.listSessions(clean({ ...filter, ...scope }))).map((s) => shown(toSessionRow(s)));

  const foundOf = async (idOrPrefix: string): Promise<SessionSummary> => {
    if (!ID.test(idOrPrefix)) throw sessionNotFound();
    let found: SessionSummary | undefined;
    try {
      // Every per-session request looks its session up: kept like the lists (with the check below), so it does
      // not wait behind a search or statistics query in the query worker.
      found = await listCache.get(`session\u0000${idOrPrefix}`, async () => {
        const summary = await queries.getSession(idOrPrefix, { paths: roots });
        // ids, never paths: a session whose files are outside the served sources does not exist here (a file kept
        // outside its agent's folders, as OpenCode's session snapshots are, is its source's: its project folder)
        const served =
          roots.length === 0 ||
          (summary !== undefined &&
            (summary.files.some((f) => isUnderAny(f.path, roots)) || isUnderAny(summary.projectDir, roots)));
        return served ? summary : undefined;
      });
    } catch (error) {
      throw toHttpError(error) ?? error;
    }
    if (!found) throw sessionNotFound();
    return found;
  };

  return {
    deps,
    index,
    queries,
    sessions,
    listCache,
    roots,
    scope,
    redact,
    assetsDir: deps.assetsDir ?? defaultAssetsDir(),
    indexStatus,
    shown,
    foundOf,
    summaryOf: async (ref) => shown(toSessionRow(await foundOf(ref))),
    coversAllSessions,
    allRows,
  };
}
