/**
 * A pushed session as the rows the team database stores it in: the session's row, and its calls', responses' and
 * files' rows.
 */
import type { FullSession, PushSession, ShareTier } from '../contract.js';

/** A device's identity as the routes pass it. */
export interface Pusher {
  readonly personId: number;
  readonly deviceId: number;
}

/** An ISO time as ms since the epoch; null when there is none or it is no time. */
export const ms = (iso: string | null): number | null => {
  if (iso === null) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/**
 * The session's row: the columns the dashboard filters and sorts by, and the rest as JSON; `lowered`, the tier it
 * replaced when that was higher.
 */
export function sessionRow(s: PushSession, who: Pusher, lowered: ShareTier | null): Record<string, unknown> {
  const { calls: _calls, responses: _responses, ...rest } = s;
  const body = 'files' in rest ? (({ files: _files, ...r }) => r)(rest) : rest;
  const meta = s.tier === 'summary' ? undefined : s;
  const u = s.usage;
  return {
    person_id: who.personId,
    uid: s.uid,
    device_id: who.deviceId,
    tier: s.tier,
    digest: s.digest,
    agent: s.agent,
    session_id: s.sessionId,
    project_hash: s.projectHash,
    project_dir: meta?.projectDir ?? null,
    project_path: meta?.projectPath ?? null,
    title: meta?.title ?? null,
    started_at: s.startedAt,
    started_ms: ms(s.startedAt),
    ended_ms: ms(s.endedAt),
    models: s.models,
    versions: s.versions,
    tool_calls: s.toolCalls,
    errors: s.errors,
    // an error that was not expected, or a request that failed, as every list counts them (index/src/read/scope.ts)
    has_errors: s.errors > s.expectedErrors || (s.header.counts.failedRequests ?? 0) > 0,
    cost_usd: s.costUsd,
    tokens: u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
    body,
    lowered_from: lowered,
  };
}

export function childRows(s: PushSession, who: Pusher) {
  const key = { person_id: who.personId, uid: s.uid };
  const calls = s.calls.map((c, seq) => ({
    ...key,
    seq,
    call_id: c.id,
    tool: c.tool,
    canonical: c.canonical,
    ts: c.ts,
    ts_ms: ms(c.ts),
    status: c.status,
    category: c.category,
    severity: c.severity,
    duration_ms: c.durationMs,
    exit_code: c.exitCode,
    agent_id: c.agentId,
    summary: 'summary' in c ? c.summary : null,
    error_message: 'errorMessage' in c ? c.errorMessage : null,
  }));
  const responses = s.responses.map((r, seq) => ({
    ...key,
    seq,
    ts_ms: r.tsMs,
    model: r.model,
    agent_id: r.agentId,
    input: r.input,
    output: r.output,
    cache_creation: r.cacheCreation,
    cache_creation_1h: r.cacheCreation1h,
    cache_read: r.cacheRead,
    reasoning: r.reasoning,
    input_unrecorded: r.inputUnrecorded === true,
    output_unrecorded: r.outputUnrecorded === true,
    // which response it is, matched across the person's sessions (response-copies.ts); none from an older laptop
    response_key: r.key ?? null,
  }));
  const files =
    s.tier === 'full'
      ? s.files.map((f, seq) => ({
          ...key,
          seq,
          name: f.name,
          role: f.role,
          agent_id: f.agentId,
          bytes: f.bytes,
          chunks: f.chunks,
        }))
      : [];
  const fileChunks = s.tier === 'full' ? [...chunksOf(s)].map((sha256) => ({ ...key, sha256 })) : [];
  return { calls, responses, files, fileChunks };
}

export const chunksOf = (s: FullSession): Set<string> => new Set(s.files.flatMap((f) => f.chunks));
