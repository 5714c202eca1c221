import { shortRefs } from '@agentdash/core/present';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CallRowDto } from '../../data/types';
import { fmtDate, fmtDuration, shortPath } from '../../ui/format';
import { sessionHref } from '../../ui/router';
import { DRILL_LIMIT, type Drill } from './use-analytics';

/**
 * What the list holds, counted as the charts count (real errors, then the expected ones apart): a bar of 62 errors
 * opened 68 rows, 6 of them expected, without a word.
 */
export function drillCountText(rows: readonly Pick<CallRowDto, 'severity'>[]): string {
  const expected = rows.filter((r) => r.severity === 'expected').length;
  const first = rows.length >= DRILL_LIMIT ? `The first ${DRILL_LIMIT}` : `${rows.length}`;
  const calls = rows.length === 1 ? 'failing call' : 'failing calls';
  const real = rows.length - expected;
  return `${first} ${calls}: ${real} ${real === 1 ? 'error' : 'errors'}${expected > 0 ? `, ${expected} expected` : ''}.`;
}

/** The calls behind a bar: each opens its session at the call. */
export function DrillPanel({
  drill,
  rows,
  onClose,
}: {
  drill: Drill;
  rows: readonly CallRowDto[] | undefined;
  onClose: () => void;
}) {
  // The panel opens below every chart, often screens away from the bar clicked: brought into view, its heading
  // focused (a keyboard or screen reader user lands on it), on each new drill. Brought again once its rows came: the
  // page ends with the panel, so while it held only its placeholder the page could not scroll its top up to the
  // window's (it stopped with the heading near the bottom of the screen).
  const heading = useRef<HTMLHeadingElement>(null);
  // what had the focus when the panel opened (a tool's errors button, a chart's surface, which is SVG): Close gives
  // it back, not to the page's start
  const [opener] = useState(() => {
    const el = document.activeElement;
    return el instanceof HTMLElement || el instanceof SVGElement ? el : null;
  });
  const close = () => {
    onClose();
    if (opener?.isConnected) opener.focus();
  };
  const loaded = rows !== undefined;
  const short = useMemo(() => shortRefs(rows?.map((r) => r.sessionId) ?? []), [rows]);
  useEffect(() => {
    const h = heading.current;
    if (h === null || drill.title === '') return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    h.closest('.drill')?.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    if (!loaded) h.focus({ preventScroll: true });
  }, [drill.title, loaded]);
  return (
    <div className="drill card" data-testid="drill">
      <div className="drill-head">
        <h2 ref={heading} tabIndex={-1} style={{ margin: 0 }}>
          {drill.title}
        </h2>
        <button type="button" className="btn small" onClick={close}>
          Close
        </button>
      </div>
      {!rows ? (
        <div className="ev-placeholder" />
      ) : rows.length === 0 ? (
        <div className="empty">No failing calls.</div>
      ) : (
        // On a phone each call is a card (styles.css `.cards-on-narrow`): its Session link, the way to the call, in view.
        <div className="cards-on-narrow">
          <p className="dim" data-testid="drill-count">
            {drillCountText(rows)}
          </p>
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
                  <td className="mono" data-label="Tool">
                    {r.tool}
                  </td>
                  <td className="c-wide drill-error">
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
                  <td className="c-wide drill-session">
                    <a href={sessionHref(r.sessionId, r.callId)} onClick={(e) => e.stopPropagation()}>
                      {r.sessionTitle ?? short.get(r.sessionId)}
                    </a>
                    {/* one line, cut short: a long path ran under the When and Duration columns */}
                    <div className="dim one-line" style={{ fontSize: 12 }} title={r.projectPath ?? undefined}>
                      {r.sessionTitle ? <span className="mono">{short.get(r.sessionId)} · </span> : null}
                      {shortPath(r.projectPath)}
                    </div>
                  </td>
                  <td data-label="When" style={{ whiteSpace: 'nowrap' }}>
                    {fmtDate(r.timestamp)}
                  </td>
                  <td className="num" data-label="Duration">
                    {fmtDuration(r.durationMs)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
