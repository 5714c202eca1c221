import type { TimeDto } from '../data/types';
import { fmtDuration } from './format';

/** The parts of a session's time, in display order, with their colours (styles.css `.tb-*`). */
export const TIME_PARTS = [
  { key: 'modelMs', label: 'model', className: 'tb-model' },
  { key: 'toolMs', label: 'tools', className: 'tb-tool' },
  { key: 'userMs', label: 'you', className: 'tb-user' },
  { key: 'idleMs', label: 'idle', className: 'tb-idle' },
] as const;

/** A stacked bar of where a session's time went: model, tools, waiting for the person, idle. */
export function TimeBar({
  time,
  width = 120,
  legend = false,
}: {
  time: TimeDto | null;
  /** Pixels, or a CSS length (`100%`: the width of its box). */
  width?: number | string;
  legend?: boolean;
}) {
  // an unknown wall time (null) is no bar
  const wallMs = time?.wallMs ?? null;
  if (!time || wallMs === null || wallMs <= 0) return <span className="dim">—</span>;
  const title = TIME_PARTS.map((p) => `${p.label} ${fmtDuration(time[p.key])}`).join(' · ');
  return (
    <span className="timebar-wrap" title={title} data-testid="time-bar">
      <span className="timebar" style={{ width }}>
        {TIME_PARTS.map((p) =>
          time[p.key] > 0 ? (
            <span key={p.key} className={p.className} style={{ width: `${(time[p.key] / wallMs) * 100}%` }} />
          ) : null,
        )}
      </span>
      {legend && (
        <span className="timebar-legend">
          {TIME_PARTS.filter((p) => time[p.key] > 0).map((p) => (
            <span key={p.key}>
              <i className={p.className} />
              {p.label} <b>{fmtDuration(time[p.key])}</b>
            </span>
          ))}
        </span>
      )}
    </span>
  );
}
