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

interface Row {
  key: string;
  message_id: string | null;
  model: string;
  ts_ms: number | null;
  session_id: string;
  sid: string;
  agent_id: string | null;
  project: string;
  agent: string;
  i: number;
  o: number;
  cc: number;
  c1h: number;
  cr: number;
  ro: number;
}

/**
 * The responses of the sessions a filter selects, each once even when resumed sessions copy it (it then belongs to
 * the session that started first), priced with the index's price table. `since`/`until` apply to the response's
 * time; `model` is a substring of the model id. Oldest first.
 */
export function usageResponses(store: Store, filter: UsageFilter = {}): UsageResponse[] {
  const { since, until, model, sessionId, ...sessions } = filter;
  const scoped = scopeSql(sessions)
    .when(toMs(since), 'r.ts_ms >= ?')
    .when(toMs(until), 'r.ts_ms <= ?')
    .when(model, 'instr(r.model, ?) > 0')
    .when(sessionId, 'r.session_id = ?');
  const rows = prepared(
    store.db,
    `SELECT r.key, r.message_id, r.model, r.ts_ms, r.session_id, s.session_id AS sid, r.agent_id,
              coalesce(s.project_path, s.project_dir) AS project, s.agent, r.input_tokens AS i, r.output_tokens AS o,
              r.cache_creation_tokens AS cc, r.cache_1h_tokens AS c1h, r.cache_read_tokens AS cr, r.reasoning_tokens AS ro
       FROM responses r JOIN sessions s ON s.id = r.session_id
       WHERE ${scoped.sql}
       ORDER BY r.key, coalesce(s.started_ms, 0), s.id`,
  ).all(...scoped.params) as Row[];
  const out: ResponseUsage<UsageContext>[] = [];
  let previous: string | undefined;
  for (const r of rows) {
    if (r.key === previous && sessionId === undefined) continue;
    previous = r.key;
    out.push({
      key: r.key,
      messageId: r.message_id ?? undefined,
      requestId: undefined,
      model: r.model,
      timestampMs: r.ts_ms ?? undefined,
      tokens: {
        inputTokens: r.i,
        outputTokens: r.o,
        cacheCreationInputTokens: r.cc,
        cacheCreation1hInputTokens: r.c1h,
        cacheReadInputTokens: r.cr,
        reasoningOutputTokens: r.ro,
      },
      records: 1,
      context: {
        sessionId: r.sid === '' ? r.session_id : r.sid,
        sessionKey: r.session_id,
        agentId: r.agent_id ?? undefined,
        project: r.project,
        agent: agentOfRow(r.agent),
      },
    });
  }
  out.sort((a, b) => (a.timestampMs ?? 0) - (b.timestampMs ?? 0));
  return priceResponses(out, store.prices);
}
