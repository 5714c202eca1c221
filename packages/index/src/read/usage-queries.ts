/** Usage across sessions: each API response once, priced, with the session, thread and project it belongs to. */
import { type PricedResponse, responsePricer } from '@agentdash/core';
import { type AgentKind, agentOfRow } from '../agents.js';
import { HOME_OF } from '../schema/schema-derived.js';
import { prepared } from '../schema/statements.js';
import type { UsageFilter } from '../types.js';
import { modelQuery, type Store, scopeSql, toMs, Where, withoutCoveringPaths } from './scope.js';

/** Where a response was made. */
export interface UsageContext {
  /** The session's id (as written in its records). */
  readonly sessionId: string;
  /** The session's key in the index (its project folder plus its id): unique, unlike the id; `getSession` takes it. */
  readonly sessionKey: string;
  /** The subagent that made it; undefined on the main thread. */
  readonly agentId: string | undefined;
  /** The session's project path, else its project folder. */
  readonly project: string;
  /** The agent that wrote the session. */
  readonly agent: AgentKind;
  /** Who pushed the session, on a team server (the usage page's breakdown per person); a laptop has no person. */
  readonly person?: string | undefined;
}

export type UsageResponse = PricedResponse<UsageContext>;

/** A response row as read (an array: a large home has tens of thousands, where objects and repeated texts cost GC). */
type Row = [
  key: string,
  messageId: string | null,
  modelRef: number,
  tsMs: number | null,
  sessionRef: number,
  agentId: string | null,
  input: number,
  output: number,
  cacheCreation: number,
  cache1h: number,
  cacheRead: number,
  reasoning: number,
  inputUnrecorded: number,
  outputUnrecorded: number,
];

/** A session of a response: its key, id, project, agent, start and end (what orders copies). */
export type SessionRow = [
  key: string,
  sid: string,
  project: string,
  agent: string,
  startedMs: number,
  endedMs: number,
  /** Its project folder's home (`HOME_OF`): copies count for their owner within one home. */
  home: string,
];

/**
 * Which of two sessions owns a response both hold: the one that started first; copies of one session in several
 * folders (the same id, the same start) give it to the newest complete copy, the one that ended last, as they give
 * their calls (call-facts.ts `firstCall`); then by key. The rule of `usageResponses` and of `sessionCopies`, and in
 * SQL (`ownsBeforeSql`, home-copies.ts) of which home's copy of a call the counts over several homes take.
 */
export function ownsBefore(a: SessionRow, b: SessionRow): boolean {
  if (a[4] !== b[4]) return a[4] < b[4];
  if (a[1] === b[1] && a[5] !== b[5]) return a[5] > b[5];
  return a[0] < b[0];
}

/** A session's row as `ownsBefore` orders it, by its number in `strings`. */
export const SESSION_OF_REF = `SELECT s.id, s.session_id, coalesce(s.project_path, s.project_dir), s.agent,
    coalesce(s.started_ms, 0), coalesce(s.ended_ms, 0), ${HOME_OF('s.project_dir')}
  FROM strings st JOIN sessions s ON s.id = st.text WHERE st.id = ?`;

/**
 * The responses of the sessions a filter selects, each once even when resumed sessions copy it (it then belongs to
 * the session that started first), priced with the index's price table. `since`/`until` apply to the response's
 * time; `model` is a substring of the model id. Oldest first (ties by key, then by the session that started first).
 *
 * The rows are read as arrays carrying their session's and model's numbers; copies are told apart here rather than
 * by sorting every row in SQL, and each session and model is looked up once (only those with responses in range:
 * a status line asks for today's few).
 */
export function usageResponses(store: Store, filter: UsageFilter = {}): UsageResponse[] {
  // One read transaction: the responses and their sessions from the same snapshot (another process may commit
  // between the reads).
  return store.db.transaction(() => readUsage(store, filter))();
}

/**
 * A window's few responses (a status line's day) have their other copies looked up by key (`responses_key`), not by a
 * second pass of the table; a window of many, by one pass (a lookup per row costs more than a pass then).
 */
const LOOKUP_KEYS = 2000;

/** The copies, outside `window`, of the keys of the responses `read` in it (the same scope and model). */
function copiesOutside(store: Store, read: readonly Row[], where: Where, window: Where, columns: string): Row[] {
  const outsideWindow = `coalesce(NOT (${window.sql}), 1)`;
  const keys = [...new Set(read.map((r) => r[0]))];
  if (keys.length > LOOKUP_KEYS) {
    return prepared(
      store.db,
      `SELECT ${columns} FROM responses r WHERE ${where.sql} AND ${outsideWindow}
         AND r.key IN (SELECT r.key FROM responses r WHERE ${where.sql} AND ${window.sql})`,
      'raw',
    ).all(...where.params, ...window.params, ...where.params, ...window.params) as Row[];
  }
  const byKey = prepared(
    store.db,
    `SELECT ${columns} FROM responses r WHERE r.key = ? AND ${where.sql} AND ${outsideWindow}`,
    'raw',
  );
  return keys.flatMap((key) => byKey.all(key, ...where.params, ...window.params) as Row[]);
}

function readUsage(store: Store, filter: UsageFilter): UsageResponse[] {
  const { since, until, model, sessionId, ...sessions } = filter;
  // Paths that hold every stored file (the homes a command was given, usually) select nothing: no condition then.
  const inScope = scopeSql(withoutCoveringPaths(store, sessions)).when(sessionId, 's.id = ?');
  const where = new Where();
  // Without a session condition, every response is read in one pass of the table (its sessions are looked up).
  if (inScope.conditions.length > 0) {
    where.add(
      `r.session_ref IN (SELECT st.id FROM sessions s JOIN strings st ON st.text = s.id WHERE ${inScope.sql})`,
      ...inScope.params,
    );
  }
  where.when(modelQuery(model), 'instr(lower((SELECT m.text FROM strings m WHERE m.id = r.model_ref)), ?) > 0');
  const window = new Where().when(toMs(since), 'r.ts_ms >= ?').when(toMs(until), 'r.ts_ms <= ?');
  const columns = `r.key, r.message_id, r.model_ref, r.ts_ms, r.session_ref, r.agent_id, r.input_tokens,
      r.output_tokens, r.cache_creation_tokens, r.cache_1h_tokens, r.cache_read_tokens, r.reasoning_tokens,
      r.input_unrecorded, r.output_unrecorded`;
  const read = prepared(store.db, `SELECT ${columns} FROM responses r WHERE ${where.sql} AND ${window.sql}`, 'raw').all(
    ...where.params,
    ...window.params,
  ) as Row[];
  // A response counts at its owner's time: the copies outside the window of the responses in it may own them.
  const outside =
    window.conditions.length === 0 || sessionId !== undefined ? [] : copiesOutside(store, read, where, window, columns);
  const sessionOf = prepared(store.db, SESSION_OF_REF, 'raw');
  const sessionRows = new Map<number, SessionRow | undefined>();
  const sessionRow = (ref: number): SessionRow | undefined => {
    if (!sessionRows.has(ref)) sessionRows.set(ref, sessionOf.get(ref) as SessionRow | undefined);
    return sessionRows.get(ref);
  };
  // A response whose session is not stored (none in practice) is not one of a session's.
  const rows = read.filter((r) => sessionRow(r[4]) !== undefined);
  // Each response once: the row of the session that owns it (every row when one session is asked for).
  let kept: Row[] = rows;
  if (sessionId === undefined) {
    const byKey = new Map<string, Row>();
    for (const r of [...rows, ...outside.filter((r) => sessionRow(r[4]) !== undefined)]) {
      const other = byKey.get(r[0]);
      if (other === undefined || ownsBefore(sessionRow(r[4]) as SessionRow, sessionRow(other[4]) as SessionRow)) {
        byKey.set(r[0], r);
      }
    }
    const outsideWindow = new Set(outside);
    kept = [...byKey.values()].filter((r) => !outsideWindow.has(r));
  }
  // Oldest first; ties as the key order, then the owning session first.
  kept.sort(
    (a, b) =>
      (a[3] ?? 0) - (b[3] ?? 0) ||
      (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) ||
      (ownsBefore(sessionRow(a[4]) as SessionRow, sessionRow(b[4]) as SessionRow) ? -1 : 1),
  );
  const textOf = prepared(store.db, 'SELECT text FROM strings WHERE id = ?', 'pluck');
  const models = new Map<number, string>();
  const contexts = new Map<string, UsageContext>();
  const costOf = responsePricer(store.prices);
  const out: UsageResponse[] = [];
  for (const r of kept) {
    const [key, messageId, modelRef, tsMs, sessionRef, agentId] = r;
    let modelName = models.get(modelRef);
    if (modelName === undefined) {
      modelName = (textOf.get(modelRef) as string | undefined) ?? '';
      models.set(modelRef, modelName);
    }
    const contextKey = `${sessionRef}\u0000${agentId ?? ''}`;
    let context = contexts.get(contextKey);
    if (context === undefined) {
      const [sessionKey, sid, project, agent] = sessionRow(sessionRef) as SessionRow;
      context = {
        sessionId: sid === '' ? sessionKey : sid,
        sessionKey,
        agentId: agentId ?? undefined,
        project,
        agent: agentOfRow(agent),
      };
      contexts.set(contextKey, context);
    }
    const tokens = {
      inputTokens: r[6],
      outputTokens: r[7],
      cacheCreationInputTokens: r[8],
      cacheCreation1hInputTokens: r[9],
      cacheReadInputTokens: r[10],
      reasoningOutputTokens: r[11],
    };
    // Priced as it is built (core's `priceResponses` would copy every response to add its cost).
    out.push({
      key,
      messageId: messageId ?? undefined,
      requestId: undefined,
      model: modelName,
      timestampMs: tsMs ?? undefined,
      tokens,
      records: 1,
      ...(r[12] === 1 ? { inputUnrecorded: true as const } : {}),
      ...(r[13] === 1 ? { outputUnrecorded: true as const } : {}),
      context,
      costUsd: costOf(modelName, tokens),
    });
  }
  return out;
}
