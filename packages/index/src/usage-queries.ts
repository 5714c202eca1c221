/** Usage across sessions: each API response once, priced, with the session, thread and project it belongs to. */
import { type PricedResponse, priceResponses, type ResponseUsage } from '@agentdash/core';
import { type AgentKind, agentOfRow } from './agents.js';
import { type Store, scopeSql, toMs } from './scope.js';
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

/** A session's columns a response's context takes. */
type SessionRow = [key: string, sid: string, project: string, agent: string];

/**
 * The responses of the sessions a filter selects, each once even when resumed sessions copy it (it then belongs to
 * the session that started first), priced with the index's price table. `since`/`until` apply to the response's
 * time; `model` is a substring of the model id. Oldest first. The rows carry numbers for their session and model:
 * each session's context and each model's name are read once and shared.
 */
export function usageResponses(store: Store, filter: UsageFilter = {}): UsageResponse[] {
  const { since, until, model, sessionId, ...sessions } = filter;
  const scoped = scopeSql(sessions)
    .when(toMs(since), 'r.ts_ms >= ?')
    .when(toMs(until), 'r.ts_ms <= ?')
    .when(model, 'instr((SELECT m.text FROM strings m WHERE m.id = r.model_ref), ?) > 0')
    .when(sessionId, 's.id = ?');
  const rows = prepared(
    store.db,
    `SELECT r.key, r.message_id, r.model_ref, r.ts_ms, r.session_ref, r.agent_id, r.input_tokens, r.output_tokens,
            r.cache_creation_tokens, r.cache_1h_tokens, r.cache_read_tokens, r.reasoning_tokens
       FROM response_rows r JOIN strings st ON st.id = r.session_ref JOIN sessions s ON s.id = st.text
       WHERE ${scoped.sql}
       ORDER BY r.key, coalesce(s.started_ms, 0), s.id`,
    'raw',
  ).all(...scoped.params) as Row[];
  const sessionOf = prepared(
    store.db,
    `SELECT s.id, s.session_id, coalesce(s.project_path, s.project_dir), s.agent
       FROM strings st JOIN sessions s ON s.id = st.text WHERE st.id = ?`,
    'raw',
  );
  const textOf = prepared(store.db, 'SELECT text FROM strings WHERE id = ?', 'pluck');
  const models = new Map<number, string>();
  const contexts = new Map<string, UsageContext>();
  const sessionRows = new Map<number, SessionRow>();
  const out: ResponseUsage<UsageContext>[] = [];
  let previous: string | undefined;
  for (const r of rows) {
    const [key, messageId, modelRef, tsMs, sessionRef, agentId] = r;
    if (key === previous && sessionId === undefined) continue;
    previous = key;
    let modelName = models.get(modelRef);
    if (modelName === undefined) {
      modelName = (textOf.get(modelRef) as string | undefined) ?? '';
      models.set(modelRef, modelName);
    }
    const contextKey = `${sessionRef}\u0000${agentId ?? ''}`;
    let context = contexts.get(contextKey);
    if (context === undefined) {
      let row = sessionRows.get(sessionRef);
      if (row === undefined) {
        row = sessionOf.get(sessionRef) as SessionRow;
        sessionRows.set(sessionRef, row);
      }
      const [sessionKey, sid, project, agent] = row;
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
  out.sort((a, b) => (a.timestampMs ?? 0) - (b.timestampMs ?? 0));
  return priceResponses(out, store.prices);
}
