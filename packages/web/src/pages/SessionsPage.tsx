import type { AgentId } from '@agentdash/core/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type SessionQuery, subscribeLive } from '../data/client';
import type { SessionRow, SessionsResponse } from '../data/types';
import { AgentBadge } from '../ui/AgentBadge';
import { AgentFilter } from '../ui/AgentFilter';
import { fmtCost, fmtDate, fmtDuration, fmtNumber, fmtRelative, shortPath } from '../ui/format';
import { IndexProgress, useIndexStatus } from '../ui/IndexProgress';
import { sessionHref } from '../ui/router';
import { Snippet } from '../ui/Snippet';
import { TimeBar } from '../ui/TimeBar';

/** Rows fetched per page; the server sorts and pages, so 50,000 sessions cost what one page costs. */
const PAGE_ROWS = 150;
/** The server's largest page. */
const MAX_FETCH = 1000;

type SortKey = 'startedAt' | 'title' | 'project' | 'durationMs' | 'messages' | 'toolCalls' | 'errors' | 'costUsd';

const COLUMNS: readonly { key: SortKey; label: string; num?: boolean }[] = [
  { key: 'title', label: 'Session' },
  { key: 'project', label: 'Project' },
  { key: 'startedAt', label: 'Started' },
  { key: 'durationMs', label: 'Duration', num: true },
  { key: 'messages', label: 'Messages', num: true },
  { key: 'toolCalls', label: 'Tool calls', num: true },
  { key: 'errors', label: 'Errors', num: true },
  { key: 'costUsd', label: 'Cost', num: true },
];

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function SessionsPage() {
  const [q, setQ] = useState('');
  const [project, setProject] = useState('');
  const [agent, setAgent] = useState<AgentId | ''>('');
  const [model, setModel] = useState('');
  const [version, setVersion] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [hasErrors, setHasErrors] = useState(false);
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'startedAt', dir: -1 });
  const [data, setData] = useState<SessionsResponse | undefined>();
  const [rows, setRows] = useState<readonly SessionRow[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [tick, setTick] = useState(0);
  const [loadingMore, setLoadingMore] = useState(false);
  const dq = useDebounced(q.trim(), 220);
  const indexStatus = useIndexStatus();
  /** How many rows are shown, so a live reload keeps what the user scrolled to. */
  const loaded = useRef(PAGE_ROWS);

  useEffect(() => subscribeLive((m) => m.type === 'sessions-changed' && setTick((t) => t + 1)), []);

  const query: SessionQuery = {
    q: dq,
    agent,
    project,
    model,
    version,
    since,
    until,
    hasErrors,
    // The server orders the whole list (cost included); search results keep their relevance order.
    ...(dq ? {} : { sort: sort.key, dir: sort.dir === 1 ? 'asc' : 'desc' }),
  };
  const queryKey = JSON.stringify(query);

  // A new filter or order starts from the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes
  useEffect(() => {
    loaded.current = PAGE_ROWS;
  }, [queryKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey stands for query; tick reloads on live changes
  useEffect(() => {
    const ctl = new AbortController();
    api
      .sessions({ ...query, offset: 0, limit: Math.min(Math.max(loaded.current, PAGE_ROWS), MAX_FETCH) }, ctl.signal)
      .then((r) => {
        setData(r);
        setRows(r.sessions);
        setError(undefined);
      })
      .catch((e: unknown) => {
        if (!ctl.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => ctl.abort();
  }, [queryKey, tick]);

  const showMore = () => {
    setLoadingMore(true);
    api
      .sessions({ ...query, offset: rows.length, limit: PAGE_ROWS * 2 })
      .then((r) => {
        setData(r);
        setRows((old) => {
          const seen = new Set(old.map((x) => x.id));
          const next = [...old, ...r.sessions.filter((x) => !seen.has(x.id))];
          loaded.current = next.length;
          return next;
        });
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setLoadingMore(false));
  };

  const onSort = useCallback(
    (key: SortKey) =>
      setSort((s) =>
        s.key === key
          ? { key, dir: s.dir === 1 ? -1 : 1 }
          : { key, dir: key === 'title' || key === 'project' ? 1 : -1 },
      ),
    [],
  );

  const totals = data
    ? { calls: data.totals.toolCalls, errors: data.totals.errors - data.totals.expectedErrors, live: data.totals.live }
    : { calls: 0, errors: 0, live: 0 };
  const indexing = indexStatus?.state === 'indexing';
  const shownRows = rows;

  const filtered = !!(dq || agent || project || model || version || since || until || hasErrors);

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1 className="page-title">Sessions</h1>
          <div className="page-sub">
            {data ? (
              <>
                {fmtNumber(data.total)} sessions · {fmtNumber(totals.calls)} tool calls · {fmtNumber(totals.errors)}{' '}
                errors{totals.live > 0 ? ` · ${totals.live} live` : ''}
              </>
            ) : (
              'Loading…'
            )}
          </div>
        </div>
      </div>
      <IndexProgress status={indexStatus} />
      <div className="toolbar">
        <input
          className="input search"
          type="search"
          placeholder="Search prompts, messages, commands, output…"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          data-testid="search"
          aria-label="Search"
        />
        <select
          className="select"
          value={project}
          onChange={(e) => setProject(e.target.value)}
          aria-label="Project"
          data-testid="filter-project"
        >
          <option value="">All projects</option>
          {data?.facets.projects.map((p) => (
            <option key={p} value={p}>
              {shortPath(p)}
            </option>
          ))}
        </select>
        <AgentFilter value={agent} onChange={setAgent} />
        <select className="select" value={model} onChange={(e) => setModel(e.target.value)} aria-label="Model">
          <option value="">All models</option>
          {data?.facets.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select
          className="select"
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          aria-label="Client version"
        >
          <option value="">All versions</option>
          {data?.facets.versions.map((v) => (
            <option key={v} value={v}>
              v{v}
            </option>
          ))}
        </select>
        <input
          className="input"
          type="date"
          value={since}
          onChange={(e) => setSince(e.target.value)}
          aria-label="From"
          title="From"
        />
        <input
          className="input"
          type="date"
          value={until}
          onChange={(e) => setUntil(e.target.value)}
          aria-label="To"
          title="To"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={hasErrors}
            onChange={(e) => setHasErrors(e.target.checked)}
            data-testid="filter-errors"
          />
          Has errors
        </label>
        {filtered && (
          <button
            type="button"
            className="btn ghost"
            onClick={() => {
              setQ('');
              setProject('');
              setModel('');
              setVersion('');
              setSince('');
              setUntil('');
              setHasErrors(false);
            }}
          >
            Clear
          </button>
        )}
      </div>
      {error && <div className="err-msg">Could not load sessions: {error}</div>}
      <div className="table-wrap">
        <table className="table" data-testid="sessions-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  className={`sortable ${c.num ? 'num' : ''}`}
                  onClick={() => onSort(c.key)}
                  aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
                >
                  {c.label}
                  {sort.key === c.key && !dq && <span className="arrow">{sort.dir === 1 ? '↑' : '↓'}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shownRows.map((r) => (
              <tr
                key={r.id}
                data-testid="session-row"
                data-session={r.id}
                onClick={() => {
                  window.location.hash = sessionHref(r.id, r.matchCallId);
                }}
              >
                <td style={{ maxWidth: 520 }}>
                  <div className="session-title">
                    {r.isLive && (
                      <span className="badge live" data-testid="live-badge">
                        live
                      </span>
                    )}
                    {r.archived && (
                      <span
                        className="badge neutral"
                        data-testid="archived-badge"
                        title="Its transcript files are gone from disk (Claude Code deletes old ones); AgentDash keeps it in its archive"
                      >
                        archived
                      </span>
                    )}
                    <a
                      className="t"
                      href={sessionHref(r.id)}
                      onClick={(e) => e.stopPropagation()}
                      style={{ color: 'inherit' }}
                    >
                      {r.title || <span className="dim">Untitled session</span>}
                    </a>
                  </div>
                  <div className="session-meta">
                    <AgentBadge agent={r.agent} />
                    <span className="mono">{r.id.slice(0, 8)}</span>
                    {r.models.slice(0, 2).map((m) => (
                      <span key={m}>{m}</span>
                    ))}
                    {r.versions.length > 0 && <span>v{r.versions.join(', ')}</span>}
                  </div>
                  {r.snippet && <Snippet text={r.snippet} />}
                </td>
                <td>
                  <span className="project" title={r.projectPath ?? ''}>
                    {shortPath(r.projectPath)}
                  </span>
                </td>
                <td style={{ whiteSpace: 'nowrap' }}>
                  <div>{fmtRelative(r.startedAt)}</div>
                  <div className="dim" style={{ fontSize: 12 }}>
                    {fmtDate(r.startedAt)}
                  </div>
                </td>
                <td className="num">
                  <div>{fmtDuration(r.durationMs)}</div>
                  <TimeBar time={r.time} width={72} />
                </td>
                <td className="num">{fmtNumber(r.messages)}</td>
                <td className="num">{fmtNumber(r.toolCalls)}</td>
                <td className="num">
                  {r.errors - r.expectedErrors > 0 ? (
                    <span className="err-count">{r.errors - r.expectedErrors}</span>
                  ) : (
                    <span className="dim">0</span>
                  )}
                  {r.expectedErrors > 0 && (
                    <div className="exp-count" style={{ fontSize: 11.5 }} title="Expected errors (normal work)">
                      +{r.expectedErrors} expected
                    </div>
                  )}
                </td>
                <td
                  className={`num cost ${r.costUsd === null ? 'unknown' : ''}`}
                  data-testid="session-cost"
                  title={r.unpricedModels.length > 0 ? `No price for ${r.unpricedModels.join(', ')}` : undefined}
                >
                  {fmtCost(r.costUsd, r.unpricedModels)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.total > rows.length && (
          <div className="empty" style={{ padding: 16 }}>
            <button type="button" className="btn" onClick={showMore} disabled={loadingMore} data-testid="show-more">
              Show more ({fmtNumber(data.total - rows.length)} more sessions)
            </button>
          </div>
        )}
        {data && rows.length === 0 && (
          <div className="empty">
            {filtered
              ? 'No session matches these filters.'
              : indexing
                ? 'Indexing… sessions appear here as they are read.'
                : 'No sessions found.'}
          </div>
        )}
      </div>
    </div>
  );
}
