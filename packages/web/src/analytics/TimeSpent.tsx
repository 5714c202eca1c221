import { useEffect, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, subscribeLive } from '../data/client';
import type { UsageResponse } from '../data/types';
import { fmtDuration, shortPath } from '../ui/format';
import { TIME_PARTS, TimeBar } from '../ui/TimeBar';

const C = { grid: '#222836', text: '#737c91' };
const TIME_COLOURS: Record<string, string> = {
  modelMs: '#8b9bff',
  toolMs: '#f2b45a',
  userMs: '#4fc1a6',
  idleMs: '#3a4154',
};
const tooltipStyle = {
  contentStyle: { background: '#1b202b', border: '1px solid #323a4c', borderRadius: 8, fontSize: 12.5 },
  labelStyle: { color: '#e6e9f0', fontWeight: 600 },
  itemStyle: { color: '#aab1c2' },
};

/**
 * Where the time went on the Analytics page: main-thread time (model, tools, waiting for you, idle) per project and
 * per day (the browser's days), for the project chosen there (all when empty). Reads `GET /api/usage`.
 */
export function TimeSpent({ project }: { project: string }) {
  const [time, setTime] = useState<UsageResponse['time'] | undefined>();
  const [tick, setTick] = useState(0);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => subscribeLive((m) => m.type === 'sessions-changed' && setTick((t) => t + 1)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick reloads on live changes
  useEffect(() => {
    const ctl = new AbortController();
    api
      .usage(project ? { project } : {}, ctl.signal)
      .then((u) => {
        setTime(u.time);
        setError(undefined);
      })
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof Error ? e.message : String(e)));
    return () => ctl.abort();
  }, [project, tick]);

  // Idle time is left out of the days: one session left open for weeks would flatten every other day.
  const active = TIME_PARTS.filter((p) => p.key !== 'idleMs');
  const days = (time?.byDay ?? []).map((d) => ({
    date: d.date,
    ...Object.fromEntries(active.map((p) => [p.key, d[p.key] / 3_600_000])),
  }));
  return (
    <div className="grid-2" data-testid="analytics-time">
      <div className="card" data-testid="analytics-time-projects">
        <h3>
          Where the time went, by project<span className="chart-hint">main threads</span>
        </h3>
        {error && <div className="err-msg">Could not load time: {error}</div>}
        <table className="table compact">
          <tbody>
            {(time?.byProject ?? []).slice(0, 12).map((p) => (
              <tr key={p.project}>
                <td className="mono" style={{ fontSize: 12 }} title={p.project}>
                  {shortPath(p.project)}
                </td>
                <td className="num">{fmtDuration(p.wallMs)}</td>
                <td>
                  <TimeBar time={p} width={220} />
                </td>
              </tr>
            ))}
            {time && time.byProject.length === 0 && (
              <tr>
                <td className="dim">No timed sessions.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="card" data-testid="analytics-time-days">
        <h3>
          Where the time went, by day<span className="chart-hint">active hours (idle left out), your time zone</span>
        </h3>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={days} margin={{ left: 8, right: 16 }}>
            <CartesianGrid vertical={false} stroke={C.grid} />
            <XAxis dataKey="date" stroke={C.text} tickLine={false} axisLine={false} />
            <YAxis stroke={C.text} tickLine={false} axisLine={false} width={40} />
            <Tooltip {...tooltipStyle} formatter={(v, name) => [fmtDuration(Number(v) * 3_600_000), String(name)]} />
            <Legend />
            {active.map((p) => (
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
  );
}
