import { type AgentId, agentIds, blockAgents, isAgentId, agentInfos as registeredAgents } from '@agentdash/core/base';
import type { AgentsResponse, CallRowDto, IssueDto, SessionRow, TimeDto } from './api-types.js';

type Obj = Readonly<Record<string, unknown>>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** An agent id as written, the registry's first (Claude Code) when absent or unknown (rows from before agents were stored). */
const agentOf = (v: unknown): AgentId => {
  const text = str(v);
  return text !== null && isAgentId(text) ? text : agentIds[0];
};

/** A session summary from the index, as the API returns it. */
export function toSessionRow(value: unknown): SessionRow {
  const v = obj(value);
  const startedAt = str(v.startedAt);
  const endedAt = str(v.endedAt);
  // The wall time (the index's `durationMs`, the time bar's `wallMs`), never recomputed from the first and last dates.
  const duration = num(v.durationMs);
  return {
    // The reference that names the session alone (its id unless another project folder has a session of that id).
    id: str(v.ref) ?? str(v.id) ?? str(v.sessionId) ?? '',
    agent: agentOf(v.agent),
    projectPath: str(v.projectPath) ?? str(v.projectDir),
    title: str(v.title),
    startedAt,
    endedAt,
    durationMs: duration !== null && Number.isFinite(duration) ? duration : null,
    messages: num(v.messages) ?? 0,
    ...(num(v.prompts) !== null ? { prompts: num(v.prompts) as number } : {}),
    toolCalls: num(v.toolCalls) ?? 0,
    errors: num(v.errors) ?? 0,
    expectedErrors: num(v.expectedErrors) ?? 0,
    versions: strs(v.versions),
    models: strs(v.models),
    isLive: v.isLive === true,
    archived: v.archived === true,
    ...((num(v.warmups) ?? 0) > 0 ? { warmups: num(v.warmups) as number } : {}),
    ...((num(v.apiErrors) ?? 0) > 0 ? { apiErrors: num(v.apiErrors) as number } : {}),
    ...((num(v.apiRetries) ?? 0) > 0 ? { apiRetries: num(v.apiRetries) as number } : {}),
    costUsd: num(v.costUsd),
    unpricedModels: strs(v.unpricedModels),
    ...(strs(v.inputUnrecordedModels).length > 0 ? { inputUnrecordedModels: strs(v.inputUnrecordedModels) } : {}),
    ...(strs(v.outputUnrecordedModels).length > 0 ? { outputUnrecordedModels: strs(v.outputUnrecordedModels) } : {}),
    tokens: tokensOf(v.usage),
    time: timeOf(v.time),
    secrets: num(v.secrets) ?? 0,
    // a team server's rows only
    ...(typeof v.person === 'string' ? { person: v.person } : {}),
    ...(typeof v.device === 'string' ? { device: v.device } : {}),
    ...(v.tier === 'summary' || v.tier === 'metadata' || v.tier === 'full' ? { tier: v.tier } : {}),
  };
}

function tokensOf(value: unknown): number {
  const u = obj(value);
  return (
    (num(u.inputTokens) ?? 0) +
    (num(u.outputTokens) ?? 0) +
    (num(u.cacheCreationInputTokens) ?? 0) +
    (num(u.cacheReadInputTokens) ?? 0)
  );
}

/** The summary's time as given: its `wallMs` null when unknown (core's `reportedTime`); null when there is none. */
function timeOf(value: unknown): TimeDto | null {
  if (!isObj(value) || !('wallMs' in value)) return null;
  const t = value;
  return {
    wallMs: num(t.wallMs),
    modelMs: num(t.modelMs) ?? 0,
    toolMs: num(t.toolMs) ?? 0,
    userMs: num(t.userMs) ?? 0,
    idleMs: num(t.idleMs) ?? 0,
  };
}

export function toCallRow(value: unknown, sessions: ReadonlyMap<string, SessionRow>): CallRowDto {
  const v = obj(value);
  const sessionId = str(v.sessionRef) ?? str(v.sessionId) ?? '';
  const session = sessions.get(sessionId);
  return {
    sessionId,
    callId: str(v.callId) ?? str(v.id) ?? '',
    tool: str(v.canonicalTool) ?? str(v.tool) ?? str(v.name) ?? '?',
    timestamp: str(v.timestamp),
    status: str(v.status) ?? 'ok',
    category: str(v.category),
    severity: str(v.severity),
    durationMs: num(v.durationMs),
    summary: str(v.errorMessage) ?? str(v.summary) ?? '',
    projectPath: session?.projectPath ?? str(v.projectPath),
    sessionTitle: session?.title ?? null,
    agentId: str(v.agentId) ?? null,
  };
}

export function toIssue(value: unknown): IssueDto {
  const v = obj(value);
  return {
    code: str(v.code) ?? 'unknown',
    file: str(v.file) ?? '',
    line: num(v.line) ?? 0,
    message: str(v.message) ?? '',
  };
}

export function hitSessionId(value: unknown): string | null {
  const v = obj(value);
  return str(v.sessionRef) ?? str(v.sessionId) ?? str(v.id);
}

export function hitSnippet(value: unknown): string | undefined {
  return str(obj(value).snippet) ?? undefined;
}

export function hitCallId(value: unknown): string | undefined {
  return str(obj(value).callId) ?? undefined;
}

/** Every registered agent as the dashboard shows it (`GET /api/agents`, and embedded in an HTML export). */
export function agentInfos(): AgentsResponse {
  return {
    agents: registeredAgents.map((a) => ({
      id: a.id,
      label: a.label,
      resume: a.resume,
      homes: a.homes,
      badge: a.badge,
      billingBlocks: blockAgents.includes(a.id),
    })),
  };
}
