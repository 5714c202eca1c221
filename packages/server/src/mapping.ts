import { type AgentId, isAgentId } from '@agentdash/core/model';
import type { CallRowDto, IssueDto, SessionRow, TimeDto, ToolStatRow } from './api-types.js';

type Obj = Readonly<Record<string, unknown>>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** An agent id as written, Claude Code's when absent or unknown (rows from before agents were stored). */
const agentOf = (v: unknown): AgentId => {
  const text = str(v);
  return text !== null && isAgentId(text) ? text : 'claude';
};

/** A session summary from the index, as the API returns it. */
export function toSessionRow(value: unknown): SessionRow {
  const v = obj(value);
  const startedAt = str(v.startedAt);
  const endedAt = str(v.endedAt);
  const duration =
    num(v.durationMs) ?? (startedAt && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) : null);
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
    toolCalls: num(v.toolCalls) ?? 0,
    errors: num(v.errors) ?? 0,
    expectedErrors: num(v.expectedErrors) ?? 0,
    versions: strs(v.versions),
    models: strs(v.models),
    isLive: v.isLive === true,
    archived: v.archived === true,
    costUsd: num(v.costUsd),
    unpricedModels: strs(v.unpricedModels),
    tokens: tokensOf(v.usage),
    time: timeOf(v.time),
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

function timeOf(value: unknown): TimeDto | null {
  const t = obj(value);
  const wallMs = num(t.wallMs);
  if (wallMs === null) return null;
  return {
    wallMs,
    modelMs: num(t.modelMs) ?? 0,
    toolMs: num(t.toolMs) ?? 0,
    userMs: num(t.userMs) ?? 0,
    idleMs: num(t.idleMs) ?? 0,
  };
}

export function toToolStat(value: unknown): ToolStatRow {
  const v = obj(value);
  const d = obj(v.durationMs);
  const calls = num(v.calls) ?? 0;
  const errors = num(v.errors) ?? 0;
  const categories: Record<string, number> = {};
  const cats = v.categories;
  if (Array.isArray(cats)) {
    for (const c of cats) {
      const co = obj(c);
      const name = str(co.category) ?? str(co.name);
      if (name) categories[name] = (categories[name] ?? 0) + (num(co.count) ?? num(co.calls) ?? 1);
    }
  } else if (isObj(cats)) {
    for (const [k, n] of Object.entries(cats)) if (typeof n === 'number') categories[k] = n;
  }
  return {
    tool: str(v.canonicalName) ?? str(v.tool) ?? str(v.name) ?? '?',
    calls,
    errors,
    expectedErrors: num(v.expectedErrors) ?? 0,
    errorRate: num(v.errorRate) ?? (calls > 0 ? errors / calls : 0),
    p50: num(d.p50) ?? num(v.p50),
    p95: num(d.p95) ?? num(v.p95),
    max: num(d.max) ?? num(v.max),
    categories,
  };
}

/** `stats()` may return rows, or an object holding them. */
export function statRows(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const v = obj(value);
  for (const key of ['tools', 'perTool', 'rows', 'byTool']) {
    const rows = v[key];
    if (Array.isArray(rows)) return rows;
    if (isObj(rows)) return Object.entries(rows).map(([tool, row]) => ({ tool, ...obj(row) }));
  }
  return [];
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

/** Rows of one canonical tool (Task and Agent, KillShell and TaskStop…) merged; percentiles keep the larger. */
export function mergeByTool(rows: readonly ToolStatRow[]): ToolStatRow[] {
  const by = new Map<string, ToolStatRow>();
  for (const r of rows) {
    const old = by.get(r.tool);
    if (!old) {
      by.set(r.tool, r);
      continue;
    }
    const calls = old.calls + r.calls;
    const errors = old.errors + r.errors;
    const categories: Record<string, number> = { ...old.categories };
    for (const [k, n] of Object.entries(r.categories)) categories[k] = (categories[k] ?? 0) + n;
    const pick = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
    by.set(r.tool, {
      tool: r.tool,
      calls,
      errors,
      expectedErrors: old.expectedErrors + r.expectedErrors,
      errorRate: calls > 0 ? errors / calls : 0,
      p50: pick(old.p50, r.p50),
      p95: pick(old.p95, r.p95),
      max: pick(old.max, r.max),
      categories,
    });
  }
  return [...by.values()];
}

export function hitCallId(value: unknown): string | undefined {
  return str(obj(value).callId) ?? undefined;
}
