import type { AgentId } from '@agentdash/core/model';
import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, subscribeLive } from '../data/client';
import type { UsageResponse } from '../data/types';
import { AgentUsageTable } from '../ui/AgentBreakdown';
import { AgentFilter } from '../ui/AgentFilter';
import { fmtCost, fmtDate, fmtDuration, fmtNumber, fmtPercent, shortPath } from '../ui/format';
import { sessionHref } from '../ui/router';
import { TIME_PARTS, TimeBar } from '../ui/TimeBar';

const C = { grid: '#222836', text: '#737c91' };
/** Model colours, in order of cost. */
const PALETTE = ['#8b9bff', '#f2b45a', '#4fc1a6', '#ff6b7a', '#c792ea', '#7fd1f7', '#e6c07b', '#9aa4b8'];
const TIME_COLOURS: Record<string, string> = {
  modelMs: '#8b9bff',
  toolMs: '#f2b45a',
  userMs: '#4fc1a6',
  idleMs: '#3a4154',
};

// Idle time is left out of the days chart: one session left open for weeks would flatten every other day.
const ACTIVE_PARTS = TIME_PARTS.filter((p) => p.key !== 'idleMs');

const tooltipStyle = {
  contentStyle: { background: '#1b202b', border: '1px solid #323a4c', borderRadius: 8, fontSize: 12.5 },
  labelStyle: { color: '#e6e9f0', fontWeight: 600 },
  itemStyle: { color: '#aab1c2' },
};

const shortModel = (m: string) => m.replace(/^claude-/, '').replace(/-\d{8}$/, '');
const tokensOf = (u: {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}) => u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

const RANGES = [
  { key: 'all', label: 'All time', days: undefined },
  { key: '30d', label: 'Last 30 days', days: 30 },
  { key: '7d', label: 'Last 7 days', days: 7 },
] as const;

export function UsagePage() {
  const [usage, setUsage] = useState<UsageResponse | undefined>();
  const [project, setProject] = useState('');
  const [agent, setAgent] = useState<AgentId | ''>('');
  const [range, setRange] = useState<(typeof RANGES)[number]['key']>('all');
  const [metric, setMetric] = useState<'cost' | 'tokens'>('cost');
  const [error, setError] = useState<string | undefined>();
  const [tick, setTick] = useState(0);

  useEffect(() => subscribeLive((m) => m.type === 'sessions-changed' && setTick((t) => t + 1)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick reloads on live changes
  useEffect(() => {
    const ctl = new AbortController();
    const days = RANGES.find((r) => r.key === range)?.days;
    const since = days === undefined ? undefined : new Date(Date.now() - days * 86_400_000).toISOString();
    api
      .usage({ project: project || undefined, agent: agent || undefined, since }, ctl.signal)
      .then((u) => {
        setUsage(u);
        setError(undefined);
      })
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => ctl.abort();
  }, [project, agent, range, tick]);

  const models = useMemo(() => (usage?.models ?? []).map((m) => m.model), [usage]);
  const daily = useMemo(
    () =>
      (usage?.days ?? []).map((d) => {
        const row: Record<string, string | number> = { date: d.date };
        for (const m of models) {
          const u = d.models[m];
          row[m] = u ? (metric === 'cost' ? (u.costUsd ?? 0) : tokensOf(u)) : 0;
        }
        return row;
      }),
    [usage, models, metric],
  );
  const projects = useMemo(
    () =>
      (usage?.projects ?? []).slice(0, 12).map((p) => ({
        name: shortPath(p.project),
        value: metric === 'cost' ? (p.costUsd ?? 0) : tokensOf(p),
      })),
    [usage, metric],
  );
  const t = usage?.totals;
  const active = usage?.blocks.find((b) => b.isActive);
  const fmtValue = (v: unknown) => (metric === 'cost' ? fmtCost(Number(v)) : fmtNumber(Number(v)));

  return (
    <div className="page" data-testid="usage-page">
      <div className="page-head">
        <div>
          <h1 className="page-title">Usage and cost</h1>
          <div className="page-sub">
            Each API response counted once, priced with {usage ? `${usage.prices.source} (${usage.prices.date})` : '…'}.
            Days in your time zone.
          </div>
        </div>
        <div className="row">
          <select
            className="select"
            value={range}
            onChange={(e) => setRange(e.target.value as typeof range)}
            aria-label="Period"
          >
            {RANGES.map((r) => (
              <option key={r.key} value={r.key}>
                {r.label}
              </option>
            ))}
          </select>
          <AgentFilter value={agent} onChange={setAgent} />
          <select className="select" value={project} onChange={(e) => setProject(e.target.value)} aria-label="Project">
            <option value="">All projects</option>
            {(usage?.projects ?? []).map((p) => (
              <option key={p.project} value={p.project}>
                {shortPath(p.project)}
              </option>
            ))}
          </select>
          <fieldset className="seg" aria-label="Metric">
            <button
              type="button"
              className={`btn small ${metric === 'cost' ? 'primary' : ''}`}
              onClick={() => setMetric('cost')}
            >
              Cost
            </button>
            <button
              type="button"
              className={`btn small ${metric === 'tokens' ? 'primary' : ''}`}
              onClick={() => setMetric('tokens')}
            >
              Tokens
            </button>
          </fieldset>
        </div>
      </div>
      {error && <div className="err-msg">Could not load usage: {error}</div>}
      <AgentUsageTable rows={usage?.agents ?? []} />
      {t && t.unpricedModels.length > 0 && (
        <div className="warn-msg" data-testid="unpriced-warning">
          No price for {t.unpricedModels.join(', ')}: their cost is unknown and not in the sums below (tokens are).
          Start the server with <span className="mono">--prices FILE</span> to add prices.
        </div>
      )}
      <div className="cards">
        <div className="card">
          <div className="metric-label">Cost</div>
          <div className="metric-value" data-testid="usage-total-cost">
            {t ? fmtCost(t.costUsd, t.unpricedModels) : '—'}
          </div>
          <div className="metric-note">{fmtNumber(t?.responses)} API responses</div>
        </div>
        <div className="card">
          <div className="metric-label">Tokens</div>
          <div className="metric-value">{t ? fmtNumber(tokensOf(t)) : '—'}</div>
          <div className="metric-note">
            {t ? `${fmtNumber(t.inputTokens)} in · ${fmtNumber(t.outputTokens)} out` : ''}
          </div>
        </div>
        <div className="card">
          <div className="metric-label">Cache hit ratio</div>
          <div className="metric-value" data-testid="cache-hit">
            {t ? fmtPercent(t.cacheHitRatio) : '—'}
          </div>
          <div className="metric-note">
            {t ? `${fmtNumber(t.cacheReadInputTokens)} read · ${fmtNumber(t.cacheCreationInputTokens)} written` : ''}
          </div>
        </div>
        <div className="card">
          <div className="metric-label">5-hour block</div>
          <div className="metric-value">{active ? fmtCost(active.costUsd, active.unpricedModels) : '—'}</div>
          <div className="metric-note">
            {active ? `active · ${fmtDuration(active.remainingMs)} left` : 'no active block'}
          </div>
        </div>
      </div>

      <div className="card" data-testid="chart-usage-days">
        <h3>
          {metric === 'cost' ? 'Cost' : 'Tokens'} per day<span className="chart-hint">stacked by model</span>
        </h3>
        {daily.length === 0 ? (
          <div className="empty">No usage.</div>
        ) : (
          <ResponsiveContainer width="100%" height={280}>
            <BarChart data={daily} margin={{ left: 8, right: 16 }}>
              <CartesianGrid vertical={false} stroke={C.grid} />
              <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis
                stroke={C.text}
                tickLine={false}
                axisLine={false}
                width={70}
                tickFormatter={(v: number) =>
                  metric === 'cost' ? `$${v < 10 ? v.toFixed(2) : Math.round(v)}` : fmtNumber(v)
                }
              />
              <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtValue(v), shortModel(String(name))]} />
              <Legend formatter={(v) => shortModel(String(v))} />
              {models.map((m, i) => (
                <Bar key={m} dataKey={m} stackId="m" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>

      <div className="grid-2">
        <div className="card" data-testid="chart-usage-projects">
          <h3>
            {metric === 'cost' ? 'Cost' : 'Tokens'} by project<span className="chart-hint">top 12</span>
          </h3>
          {projects.length === 0 ? (
            <div className="empty">No usage.</div>
          ) : (
            <ResponsiveContainer width="100%" height={Math.max(160, projects.length * 30 + 40)}>
              <BarChart data={projects} layout="vertical" margin={{ left: 8, right: 24 }}>
                <CartesianGrid horizontal={false} stroke={C.grid} />
                <XAxis
                  type="number"
                  stroke={C.text}
                  tickLine={false}
                  axisLine={false}
                  tickFormatter={(v: number) => fmtValue(v)}
                />
                <YAxis
                  type="category"
                  dataKey="name"
                  width={170}
                  stroke={C.text}
                  tickLine={false}
                  axisLine={false}
                  interval={0}
                />
                <Tooltip {...tooltipStyle} formatter={(v) => [fmtValue(v), metric]} />
                <Bar dataKey="value" fill="#8b9bff" radius={[0, 4, 4, 0]} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </div>
        <div className="card" data-testid="usage-models">
          <h3>By model</h3>
          <table className="table compact">
            <thead>
              <tr>
                <th>Model</th>
                <th className="num">Responses</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {(usage?.models ?? []).map((m, i) => (
                <tr key={m.model}>
                  <td>
                    <i className="swatch" style={{ background: PALETTE[i % PALETTE.length] }} />
                    {m.model}
                  </td>
                  <td className="num">{fmtNumber(m.responses)}</td>
                  <td className="num">{fmtNumber(tokensOf(m))}</td>
                  <td className={`num cost ${m.costUsd === null ? 'unknown' : ''}`}>{fmtCost(m.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>

      <div className="grid-2">
        <div className="card" data-testid="usage-top-sessions">
          <h3>Top sessions by cost</h3>
          <table className="table compact">
            <thead>
              <tr>
                <th>Session</th>
                <th>Started</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {(usage?.topSessions ?? []).slice(0, 10).map((s) => (
                <tr key={s.id}>
                  <td style={{ maxWidth: 320 }}>
                    <a className="one-line" href={sessionHref(s.id)} title={s.title ?? s.id}>
                      {s.title || s.id.slice(0, 8)}
                    </a>
                    <div className="dim mono" style={{ fontSize: 11.5 }}>
                      {shortPath(s.project)}
                    </div>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{fmtDate(s.startedAt)}</td>
                  <td className="num">{fmtNumber(tokensOf(s))}</td>
                  <td className={`num cost ${s.costUsd === null ? 'unknown' : ''}`}>{fmtCost(s.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="card" data-testid="usage-blocks">
          <h3>
            5-hour blocks<span className="chart-hint">usage limits reset 5 h after a block's first request</span>
          </h3>
          <table className="table compact">
            <thead>
              <tr>
                <th>Block</th>
                <th className="num">Responses</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {[...(usage?.blocks ?? [])].reverse().map((b) => (
                <tr key={b.start}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    {fmtDate(b.start)} – {fmtDate(b.end).split(', ').pop()}
                    {b.isActive && <span className="badge live"> {fmtDuration(b.remainingMs)} left</span>}
                  </td>
                  <td className="num">{fmtNumber(b.responses)}</td>
                  <td className="num">{fmtNumber(tokensOf(b))}</td>
                  <td className={`num cost ${b.costUsd === null ? 'unknown' : ''}`}>
                    {fmtCost(b.costUsd, b.unpricedModels)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>

      <div className="grid-2">
        <div className="card" data-testid="usage-time-projects">
          <h3>
            Where the time went, by project<span className="chart-hint">main threads</span>
          </h3>
          <table className="table compact">
            <tbody>
              {(usage?.time.byProject ?? []).slice(0, 12).map((p) => (
                <tr key={p.project}>
                  <td className="mono" style={{ fontSize: 12 }}>
                    {shortPath(p.project)}
                  </td>
                  <td className="num">{fmtDuration(p.wallMs)}</td>
                  <td>
                    <TimeBar time={p} width={220} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="card" data-testid="chart-usage-time-days">
          <h3>
            Where the time went, by day<span className="chart-hint">active hours (idle left out)</span>
          </h3>
          <ResponsiveContainer width="100%" height={240}>
            <BarChart
              data={(usage?.time.byDay ?? []).map((d) => ({
                date: d.date,
                ...Object.fromEntries(ACTIVE_PARTS.map((p) => [p.key, d[p.key] / 3_600_000])),
              }))}
              margin={{ left: 8, right: 16 }}
            >
              <CartesianGrid vertical={false} stroke={C.grid} />
              <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
              <YAxis stroke={C.text} tickLine={false} axisLine={false} width={40} />
              <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtDuration(Number(v) * 3_600_000), String(name)]} />
              <Legend />
              {ACTIVE_PARTS.map((p) => (
                <Bar
                  key={p.key}
                  dataKey={p.key}
                  name={p.label}
                  stackId="t"
                  fill={TIME_COLOURS[p.key]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
    </div>
  );
}
