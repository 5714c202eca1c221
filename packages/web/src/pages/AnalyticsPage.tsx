import type { AgentId } from '@agentdash/core/model';
import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { TimeSpent } from '../analytics/TimeSpent';
import { api, subscribeLive } from '../data/client';
import type { CallRowDto, StatsResponse } from '../data/types';
import { AgentStatsTable } from '../ui/AgentBreakdown';
import { AgentFilter } from '../ui/AgentFilter';
import { fmtDate, fmtDuration, fmtNumber, fmtPercent, shortPath } from '../ui/format';
import { sessionHref } from '../ui/router';

const TOP = 14;
const C = { calls: '#8b9bff', ok: '#4f6bd1', err: '#ff6b7a', exp: '#6b7386', grid: '#222836', text: '#737c91' };

interface Drill {
  readonly title: string;
  readonly query: { tool?: string; status?: string; category?: string; severity?: string; project?: string };
}

const tooltipStyle = {
  contentStyle: { background: '#1b202b', border: '1px solid #323a4c', borderRadius: 8, fontSize: 12.5 },
  labelStyle: { color: '#e6e9f0', fontWeight: 600 },
  itemStyle: { color: '#aab1c2' },
};

function payloadOf<T>(data: unknown): T | undefined {
  const d = data as { payload?: T } | undefined;
  return d?.payload;
}

export function AnalyticsPage() {
  const [stats, setStats] = useState<StatsResponse | undefined>();
  const [project, setProject] = useState('');
  const [agent, setAgent] = useState<AgentId | ''>('');
  const [projects, setProjects] = useState<readonly string[]>([]);
  const [drill, setDrill] = useState<Drill | undefined>();
  const [rows, setRows] = useState<readonly CallRowDto[] | undefined>();
  const [tick, setTick] = useState(0);
  const [durationTool, setDurationTool] = useState('');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => subscribeLive((m) => m.type === 'sessions-changed' && setTick((t) => t + 1)), []);
  useEffect(() => {
    api
      .sessions({})
      .then((r) => setProjects(r.facets.projects))
      .catch(() => {});
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick reloads on live changes
  useEffect(() => {
    const ctl = new AbortController();
    api
      .stats({ project, agent }, ctl.signal)
      .then((s) => {
        setStats(s);
        setError(undefined);
      })
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => ctl.abort();
  }, [project, agent, tick]);

  useEffect(() => {
    if (!drill) return;
    setRows(undefined);
    api
      .calls({ ...drill.query, project: drill.query.project ?? (project || undefined), limit: 300 })
      .then(setRows)
      .catch(() => setRows([]));
  }, [drill, project]);

  const tools = useMemo(
    () =>
      (stats?.tools ?? []).map((t) => ({
        ...t,
        name: t.tool.replace(/^mcp__/, 'mcp:'),
        realErrors: t.errors - t.expectedErrors,
        okCalls: t.calls - t.errors,
        ratePct: Math.round(t.errorRate * 1000) / 10,
      })),
    [stats],
  );
  const byRate = useMemo(
    () =>
      [...tools]
        .filter((t) => t.errors > 0)
        .sort((a, b) => b.errorRate - a.errorRate || b.errors - a.errors)
        .slice(0, TOP),
    [tools],
  );
  const topTools = useMemo(() => tools.slice(0, TOP), [tools]);
  const timeRows = useMemo(
    () =>
      (stats?.days ?? []).map((d) => ({
        ...d,
        okCalls: d.calls - d.errors - d.expectedErrors,
        label: stats?.granularity === 'day' ? d.day : d.day.replace('T', ' ').slice(5),
      })),
    [stats],
  );
  const drillTool = (t: { tool: string } | undefined) =>
    t && setDrill({ title: `Failing ${t.tool} calls`, query: { tool: t.tool, status: 'error' } });

  const totals = stats?.totals;
  const chartH = Math.max(220, topTools.length * 26 + 40);

  return (
    <div className="page" data-testid="analytics">
      <div className="page-head">
        <div>
          <h1 className="page-title">Tool analytics</h1>
          <div className="page-sub">
            How tools are used, how often they fail, and how long they take. Click a bar to see the failing calls.
          </div>
        </div>
        <AgentFilter value={agent} onChange={setAgent} />
        <select className="select" value={project} onChange={(e) => setProject(e.target.value)} aria-label="Project">
          <option value="">All projects</option>
          {projects.map((p) => (
            <option key={p} value={p}>
              {shortPath(p)}
            </option>
          ))}
        </select>
      </div>
      {error && <div className="err-msg">Could not load statistics: {error}</div>}
      <AgentStatsTable rows={stats?.agents ?? []} />
      <div className="cards">
        <div className="card">
          <div className="metric-label">Tool calls</div>
          <div className="metric-value">{fmtNumber(totals?.calls)}</div>
          <div className="metric-note">across {fmtNumber(totals?.sessions)} sessions</div>
        </div>
        <div className="card">
          <div className="metric-label">Errors</div>
          <div className="metric-value" style={{ color: 'var(--err)' }}>
            {totals ? fmtNumber(totals.errors - totals.expectedErrors) : '—'}
          </div>
          <div className="metric-note">
            {totals?.calls ? fmtPercent((totals.errors - totals.expectedErrors) / totals.calls) : '—'} of calls
          </div>
        </div>
        <div className="card">
          <div className="metric-label">Expected errors</div>
          <div className="metric-value" style={{ color: 'var(--exp)' }}>
            {fmtNumber(totals?.expectedErrors)}
          </div>
          <div className="metric-note">declined plans, finished shells…</div>
        </div>
        <div className="card">
          <div className="metric-label">Tools used</div>
          <div className="metric-value">{fmtNumber(tools.length)}</div>
          <div className="metric-note">{tools[0] ? `most used: ${tools[0].tool}` : ''}</div>
        </div>
      </div>

      <div className="grid-2">
        <div className="card" data-testid="chart-tools">
          <h3>
            Calls per tool
            <span className="chart-hint">
              {tools.length > TOP ? `top ${TOP} of ${tools.length} · ` : ''}ok · errors · expected
            </span>
          </h3>
          <ResponsiveContainer width="100%" height={chartH}>
            <BarChart data={topTools} layout="vertical" margin={{ left: 8, right: 16 }}>
              <CartesianGrid horizontal={false} stroke={C.grid} />
              <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis
                type="category"
                dataKey="name"
                width={150}
                stroke={C.text}
                tickLine={false}
                axisLine={false}
                interval={0}
              />
              <Tooltip {...tooltipStyle} />
              <Bar dataKey="okCalls" name="ok" stackId="a" fill={C.ok} onClick={(d) => drillTool(payloadOf(d))} />
              <Bar
                dataKey="realErrors"
                name="errors"
                stackId="a"
                fill={C.err}
                onClick={(d) => drillTool(payloadOf(d))}
              />
              <Bar
                dataKey="expectedErrors"
                name="expected"
                stackId="a"
                fill={C.exp}
                radius={[0, 4, 4, 0]}
                onClick={(d) => drillTool(payloadOf(d))}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="card" data-testid="chart-error-rate">
          <h3>
            Error rate by tool
            <span className="chart-hint">highest {byRate.length} · click a bar for the failing calls</span>
          </h3>
          {byRate.length === 0 ? (
            <div className="empty">No errors.</div>
          ) : (
            <ResponsiveContainer width="100%" height={chartH}>
              <BarChart data={byRate} layout="vertical" margin={{ left: 8, right: 24 }}>
                <CartesianGrid horizontal={false} stroke={C.grid} />
                <XAxis type="number" unit="%" stroke={C.text} tickLine={false} axisLine={false} domain={[0, 100]} />
                <YAxis
                  type="category"
                  dataKey="name"
                  width={150}
                  stroke={C.text}
                  tickLine={false}
                  axisLine={false}
                  interval={0}
                />
                <Tooltip {...tooltipStyle} formatter={(v) => [`${v}%`, 'error rate']} />
                <Bar dataKey="ratePct" name="error rate" radius={[0, 4, 4, 0]} onClick={(d) => drillTool(payloadOf(d))}>
                  {byRate.map((t) => (
                    <Cell key={t.tool} fill={t.realErrors > 0 ? C.err : C.exp} data-testid={`rate-bar-${t.tool}`} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
        <div className="card" data-testid="chart-categories">
          <h3>
            Error categories<span className="chart-hint">grey: expected</span>
          </h3>
          {(stats?.categories.length ?? 0) === 0 ? (
            <div className="empty">No errors.</div>
          ) : (
            <ResponsiveContainer width="100%" height={Math.max(200, (stats?.categories.length ?? 0) * 28 + 40)}>
              <BarChart data={stats?.categories ?? []} layout="vertical" margin={{ left: 8, right: 16 }}>
                <CartesianGrid horizontal={false} stroke={C.grid} />
                <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
                <YAxis
                  type="category"
                  dataKey="category"
                  width={150}
                  stroke={C.text}
                  tickLine={false}
                  axisLine={false}
                  interval={0}
                />
                <Tooltip {...tooltipStyle} />
                <Bar
                  dataKey="count"
                  name="errors"
                  radius={[0, 4, 4, 0]}
                  onClick={(d) => {
                    const p = payloadOf<{ category: string; severity: string }>(d);
                    if (p)
                      setDrill({
                        title: `Errors: ${p.category} (${p.severity})`,
                        query: { category: p.category, severity: p.severity, status: 'error' },
                      });
                  }}
                >
                  {(stats?.categories ?? []).map((c) => (
                    <Cell key={`${c.category}-${c.severity}`} fill={c.severity === 'expected' ? C.exp : C.err} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
        <div className="card" data-testid="chart-durations">
          <div className="row" style={{ justifyContent: 'space-between', marginBottom: 12 }}>
            <h3 style={{ margin: 0 }}>Duration distribution</h3>
            <select
              className="select"
              value={durationTool}
              onChange={(e) => setDurationTool(e.target.value)}
              aria-label="Tool"
              data-testid="duration-tool"
            >
              <option value="">All tools</option>
              {tools.map((t) => (
                <option key={t.tool} value={t.tool}>
                  {t.tool}
                </option>
              ))}
            </select>
          </div>
          <ResponsiveContainer width="100%" height={200}>
            <BarChart
              data={(durationTool ? stats?.durationsByTool[durationTool] : stats?.durations) ?? []}
              margin={{ right: 8 }}
            >
              <CartesianGrid vertical={false} stroke={C.grid} />
              <XAxis dataKey="label" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
              <Tooltip {...tooltipStyle} />
              <Bar dataKey="count" name="calls" fill={C.calls} radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="card wide" data-testid="chart-time">
          <h3>
            Over time
            <span className="chart-hint">
              per {stats?.granularity === 'minute' ? '5 minutes' : (stats?.granularity ?? 'day')} (UTC)
            </span>
          </h3>
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={timeRows} margin={{ right: 8 }}>
              <CartesianGrid vertical={false} stroke={C.grid} />
              <XAxis dataKey="label" stroke={C.text} tickLine={false} axisLine={false} minTickGap={24} />
              <YAxis stroke={C.text} tickLine={false} axisLine={false} allowDecimals={false} />
              <Tooltip {...tooltipStyle} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar dataKey="okCalls" name="ok" stackId="t" fill={C.ok} maxBarSize={64} />
              <Bar dataKey="errors" name="errors" stackId="t" fill={C.err} maxBarSize={64} />
              <Bar
                dataKey="expectedErrors"
                name="expected"
                stackId="t"
                fill={C.exp}
                radius={[4, 4, 0, 0]}
                maxBarSize={64}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className="card wide" data-testid="chart-projects">
          <h3>
            Per project<span className="chart-hint">click a bar for its failing calls</span>
          </h3>
          <ResponsiveContainer width="100%" height={Math.max(200, (stats?.projects.length ?? 0) * 26 + 40)}>
            <BarChart
              data={(stats?.projects ?? []).map((p) => ({
                ...p,
                name: shortPath(p.project),
                okCalls: p.calls - p.errors - p.expectedErrors,
              }))}
              layout="vertical"
              margin={{ left: 8, right: 16 }}
            >
              <CartesianGrid horizontal={false} stroke={C.grid} />
              <XAxis type="number" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis
                type="category"
                dataKey="name"
                width={170}
                stroke={C.text}
                tickLine={false}
                axisLine={false}
                interval={0}
              />
              <Tooltip {...tooltipStyle} />
              {[
                ['okCalls', 'ok', C.ok],
                ['errors', 'errors', C.err],
                ['expectedErrors', 'expected', C.exp],
              ].map(([key, name, fill]) => (
                <Bar
                  key={key}
                  dataKey={key as string}
                  name={name as string}
                  stackId="p"
                  fill={fill as string}
                  onClick={(d) => {
                    const p = payloadOf<{ project: string }>(d);
                    if (p)
                      setDrill({
                        title: `Failing calls in ${shortPath(p.project)}`,
                        query: { project: p.project, status: 'error' },
                      });
                  }}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>

      <div className="card" style={{ marginBottom: 14 }}>
        <h3>Durations per tool</h3>
        <table className="table" style={{ background: 'transparent' }}>
          <thead>
            <tr>
              <th>Tool</th>
              <th className="num">Calls</th>
              <th className="num">Errors</th>
              <th className="num">Error rate</th>
              <th className="num">p50</th>
              <th className="num">p95</th>
              <th className="num">max</th>
            </tr>
          </thead>
          <tbody>
            {tools.map((t) => (
              <tr key={t.tool} onClick={() => t.errors > 0 && drillTool(t)} data-testid="tool-row">
                <td className="mono">{t.tool}</td>
                <td className="num">{fmtNumber(t.calls)}</td>
                <td className="num">
                  {t.realErrors > 0 ? (
                    <span className="err-count">{t.realErrors}</span>
                  ) : (
                    <span className="dim">0</span>
                  )}
                  {t.expectedErrors > 0 && <span className="exp-count"> +{t.expectedErrors}</span>}
                </td>
                <td className="num">{fmtPercent(t.errorRate)}</td>
                <td className="num">{fmtDuration(t.p50)}</td>
                <td className="num">{fmtDuration(t.p95)}</td>
                <td className="num">{fmtDuration(t.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {drill && (
        <div className="drill card" data-testid="drill">
          <div className="drill-head">
            <h3 style={{ margin: 0 }}>{drill.title}</h3>
            <button type="button" className="btn small" onClick={() => setDrill(undefined)}>
              Close
            </button>
          </div>
          {!rows ? (
            <div className="ev-placeholder" />
          ) : rows.length === 0 ? (
            <div className="empty">No failing calls.</div>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th>Tool</th>
                  <th>Error</th>
                  <th>Session</th>
                  <th>When</th>
                  <th className="num">Duration</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr
                    key={`${r.sessionId}-${r.callId}`}
                    data-testid="drill-row"
                    onClick={() => {
                      window.location.hash = sessionHref(r.sessionId, r.callId);
                    }}
                  >
                    <td className="mono">{r.tool}</td>
                    <td style={{ maxWidth: 480 }}>
                      <span className={`badge ${r.severity === 'expected' ? 'expected' : 'error'}`}>
                        {r.category ?? r.status}
                      </span>
                      <div
                        className="dim mono"
                        style={{
                          marginTop: 4,
                          fontSize: 12,
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {r.summary}
                      </div>
                    </td>
                    <td style={{ maxWidth: 300 }}>
                      <a href={sessionHref(r.sessionId, r.callId)} onClick={(e) => e.stopPropagation()}>
                        {r.sessionTitle ?? r.sessionId.slice(0, 8)}
                      </a>
                      <div className="dim" style={{ fontSize: 12 }}>
                        {shortPath(r.projectPath)}
                      </div>
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>{fmtDate(r.timestamp)}</td>
                    <td className="num">{fmtDuration(r.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      <TimeSpent project={project} />
    </div>
  );
}
