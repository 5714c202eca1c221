/** Usage across sessions: each API response once, priced, with the session, thread and project it belongs to. */
import { type PricedResponse, priceResponses, type ResponseUsage } from '@agentdash/core';
import { type AgentKind, agentOfRow } from './agents.js';
import { type Store, scopeSql, toMs, Where } from './scope.js';
import { prepared } from './statements.js';
import type { UsageFilter } from './types.js';

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
}

export type UsageResponse = PricedResponse<UsageContext>;

/** A response row as read (an array: 73,000 of them at 1 GiB, where objects and repeated texts cost in GC). */
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
];

/** A session in scope: its string number, key, id, project, agent and start (what orders copies). */
type SessionRow = [ref: number, key: string, sid: string, project: string, agent: string, startedMs: number];

/**
 * The responses of the sessions a filter selects, each once even when resumed sessions copy it (it then belongs to
 * the session that started first), priced with the index's price table. `since`/`until` apply to the response's
 * time; `model` is a substring of the model id. Oldest first (ties by key, then by the session that started first).
 *
 * The sessions in scope are read first; their responses are then read by the sessions' numbers (the table's primary
 * key) as arrays, copies are told apart here rather than by sorting every row in SQL, and each session's context and
 * each model's name are read once and shared.
 */
export function usageResponses(store: Store, filter: UsageFilter = {}): UsageResponse[] {
  // One read transaction: the sessions and their responses from the same snapshot (another process may commit
  // between the two reads).
  return store.db.transaction(() => readUsage(store, filter))();
}

function readUsage(store: Store, filter: UsageFilter): UsageResponse[] {
  const { since, until, model, sessionId, ...sessions } = filter;
  const inScope = scopeSql(sessions).when(sessionId, 's.id = ?');
  const scopedSessions = prepared(
    store.db,
    `SELECT st.id, s.id, s.session_id, coalesce(s.project_path, s.project_dir), s.agent, coalesce(s.started_ms, 0)
       FROM sessions s JOIN strings st ON st.text = s.id WHERE ${inScope.sql}`,
    'raw',
  ).all(...inScope.params) as SessionRow[];
  const sessionRows = new Map(scopedSessions.map((row) => [row[0], row]));
  const ofRow = new Where()
    .when(toMs(since), 'r.ts_ms >= ?')
    .when(toMs(until), 'r.ts_ms <= ?')
    .when(model, 'instr((SELECT m.text FROM strings m WHERE m.id = r.model_ref), ?) > 0');
  const rows = prepared(
    store.db,
    `SELECT r.key, r.message_id, r.model_ref, r.ts_ms, r.session_ref, r.agent_id, r.input_tokens, r.output_tokens,
            r.cache_creation_tokens, r.cache_1h_tokens, r.cache_read_tokens, r.reasoning_tokens
       FROM response_rows r
       WHERE r.session_ref IN (SELECT st.id FROM sessions s JOIN strings st ON st.text = s.id WHERE ${inScope.sql})
         AND ${ofRow.sql}`,
    'raw',
  ).all(...inScope.params, ...ofRow.params) as Row[];
  /** Which of two sessions owns a response both hold: the one that started first, then by key. */
  const before = (a: SessionRow, b: SessionRow) => a[5] < b[5] || (a[5] === b[5] && a[1] < b[1]);
  // Each response once: the row of the session that owns it (every row when one session is asked for).
  let kept: Row[] = rows;
  if (sessionId === undefined) {
    const byKey = new Map<string, Row>();
    for (const r of rows) {
      const other = byKey.get(r[0]);
      if (other === undefined || before(sessionRows.get(r[4]) as SessionRow, sessionRows.get(other[4]) as SessionRow)) {
        byKey.set(r[0], r);
      }
    }
    kept = [...byKey.values()];
  }
  // Oldest first; ties as the key order, then the owning session first.
  kept.sort(
    (a, b) =>
      (a[3] ?? 0) - (b[3] ?? 0) ||
      (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) ||
      (before(sessionRows.get(a[4]) as SessionRow, sessionRows.get(b[4]) as SessionRow) ? -1 : 1),
  );
  const textOf = prepared(store.db, 'SELECT text FROM strings WHERE id = ?', 'pluck');
  const models = new Map<number, string>();
  const contexts = new Map<string, UsageContext>();
  const out: ResponseUsage<UsageContext>[] = [];
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
      const [, sessionKey, sid, project, agent] = sessionRows.get(sessionRef) as SessionRow;
      context = {
        sessionId: sid === '' ? sessionKey : sid,
        sessionKey,
        agentId: agentId ?? undefined,
        project,
        agent: agentOfRow(agent),
      };
      contexts.set(contextKey, context);
    }
    out.push({
      key,
      messageId: messageId ?? undefined,
      requestId: undefined,
      model: modelName,
      timestampMs: tsMs ?? undefined,
      tokens: {
        inputTokens: r[6],
        outputTokens: r[7],
        cacheCreationInputTokens: r[8],
        cacheCreation1hInputTokens: r[9],
        cacheReadInputTokens: r[10],
        reasoningOutputTokens: r[11],
      },
      records: 1,
      context,
    });
  }
  return priceResponses(out, store.prices);
}
