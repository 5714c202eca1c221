import {
  discoverFiles,
  groupSessions,
  loadSession,
  primaryDurationMs,
  type Session,
  timestampMs,
} from '@agentdash/core';
import type { AgentIndexLike, IndexFilter } from './agent-index.js';

/**
 * A small in-memory stand-in for the SQLite index: loads every session on refresh. Used by tests and as a
 * fallback; the real index (`@agentdash/index`) is what `agentdash serve` uses.
 */
export function createMemoryIndex(): AgentIndexLike {
  let sessions = new Map<string, Session>();
  let lastPaths: readonly string[] = [];
  const summaries = () =>
    [...sessions.values()].map((s) => ({
      id: s.id,
      projectPath: s.projectPath ?? s.projectDir,
      title: s.title,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      durationMs:
        s.startedAt && s.endedAt ? (timestampMs(s.endedAt) ?? 0) - (timestampMs(s.startedAt) ?? 0) : undefined,
      messages: s.counts.prompts + s.counts.assistantMessages,
      toolCalls: s.counts.toolCalls,
      errors: s.counts.errors,
      expectedErrors: s.counts.expectedErrors,
      versions: s.versions,
      models: s.models,
      isLive: false,
    }));
  const matches = (s: Session, f: IndexFilter | undefined) => {
    if (!f) return true;
    if (f.project && (s.projectPath ?? s.projectDir) !== f.project) return false;
    if (f.model && !s.models.includes(f.model)) return false;
    if (f.version && !s.versions.includes(f.version)) return false;
    if (f.hasErrors && s.counts.errors === 0) return false;
    if (f.since && (s.endedAt ?? '') < f.since) return false;
    if (f.until && (s.startedAt ?? '') > f.until) return false;
    return true;
  };
  const callRows = (f: IndexFilter | undefined) =>
    [...sessions.values()]
      .filter((s) => matches(s, f && { ...f, hasErrors: false }))
      .flatMap((s) =>
        s.calls.map((c) => ({
          sessionId: s.id,
          callId: c.id,
          tool: c.canonicalName,
          timestamp: c.timestamp,
          status: c.status,
          category: c.result?.error?.category,
          severity: c.result?.error?.severity,
          durationMs: primaryDurationMs(c),
          summary: c.result?.error?.message ?? JSON.stringify(c.input).slice(0, 120),
        })),
      )
      .filter(
        (r) =>
          (!f?.tool || r.tool === f.tool) &&
          (!f?.status || r.status === f.status) &&
          (!f?.category || r.category === f.category) &&
          (!f?.severity || r.severity === f.severity),
      );
  const index = {
    async refresh(paths: readonly string[]) {
      lastPaths = paths.length > 0 ? paths : lastPaths;
      const discovery = await discoverFiles(lastPaths);
      const next = new Map<string, Session>();
      for (const group of groupSessions(discovery.files)) {
        if (!group.main) continue;
        next.set(group.sessionId, await loadSession(group));
      }
      sessions = next;
      return {
        files: discovery.files.length,
        filesParsed: discovery.files.length,
        bytesParsed: 0,
        records: 0,
        issues: 0,
      };
    },
    listSessions(filter?: IndexFilter) {
      return summaries().filter((row) => matches(sessions.get(row.id)!, filter));
    },
    getSession(idOrPrefix: string) {
      const hits = summaries().filter((row) => row.id === idOrPrefix || row.id.startsWith(idOrPrefix));
      return hits.length === 1 ? hits[0] : undefined;
    },
    async loadSession(sessionId: string) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      return s;
    },
    stats(filter?: IndexFilter) {
      const byTool = new Map<string, ReturnType<typeof callRows>>();
      for (const row of callRows(filter)) byTool.set(row.tool, [...(byTool.get(row.tool) ?? []), row]);
      return [...byTool].map(([tool, rows]) => {
        const ds = rows
          .map((r) => r.durationMs)
          .filter((d): d is number => d !== undefined)
          .sort((a, b) => a - b);
        const errors = rows.filter((r) => r.status === 'error').length;
        const categories: Record<string, number> = {};
        for (const r of rows) if (r.category) categories[r.category] = (categories[r.category] ?? 0) + 1;
        return {
          tool,
          calls: rows.length,
          errors,
          expectedErrors: rows.filter((r) => r.severity === 'expected').length,
          errorRate: rows.length ? errors / rows.length : 0,
          durationMs: {
            p50: ds[Math.floor(ds.length * 0.5)],
            p95: ds[Math.min(ds.length - 1, Math.floor(ds.length * 0.95))],
            max: ds[ds.length - 1],
          },
          categories,
        };
      });
    },
    calls(filter?: IndexFilter) {
      return callRows(filter).slice(0, filter?.limit ?? 1000);
    },
    search(query: string) {
      const q = query.toLowerCase();
      const hits: { sessionId: string; snippet: string }[] = [];
      for (const s of sessions.values()) {
        for (const e of s.events) {
          const text = e.kind === 'prompt' ? e.text : e.kind === 'assistant' ? JSON.stringify(e.items) : '';
          const at = text.toLowerCase().indexOf(q);
          if (at >= 0) {
            const start = Math.max(0, at - 40);
            hits.push({
              sessionId: s.id,
              snippet: `${text.slice(start, at)}\u0001${text.slice(at, at + q.length)}\u0002${text.slice(at + q.length, at + q.length + 60)}`,
            });
            break;
          }
        }
      }
      return hits;
    },
    issues(filter?: IndexFilter) {
      const s = filter?.sessionId ? sessions.get(filter.sessionId) : undefined;
      return s ? s.issues : [];
    },
    close() {},
  };
  return index as unknown as AgentIndexLike;
}
