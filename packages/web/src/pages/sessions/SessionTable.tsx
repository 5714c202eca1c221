import { modelLabel, plainText, shortRefs } from '@agentdash/core/present';
import { activeMs } from '@agentdash/core/time';
import { useMemo } from 'react';
import type { SessionRow } from '../../data/types';
import { AgentBadge } from '../../ui/AgentBadge';
import { ArchivedBadge } from '../../ui/ArchivedBadge';
import { FAILED_REQUESTS_TIP } from '../../ui/FailedRequests';
import { costGapsNote, fmtCost, fmtDate, fmtDuration, fmtNumber, fmtRecent, shortPath } from '../../ui/format';
import { sessionHref } from '../../ui/router';
import { SecretsBadge } from '../../ui/SecretsBadge';
import { Snippet } from '../../ui/Snippet';
import { TeamBadge, TIER_TITLE } from '../../ui/TeamBadge';
import { TimeBar } from '../../ui/TimeBar';
import { hitFindText } from './hit-find';
import type { Sort, SortKey } from './use-session-list';

/** The columns; `className` also marks the column's cells (`c-messages`: left out between cards and a wide window). */
const COLUMNS: readonly { key: SortKey; label: string; num?: boolean; className?: string }[] = [
  { key: 'title', label: 'Session' },
  { key: 'project', label: 'Project' },
  { key: 'startedAt', label: 'Started' },
  { key: 'durationMs', label: 'Time', num: true },
  { key: 'messages', label: 'Messages', num: true, className: 'c-messages' },
  { key: 'toolCalls', label: 'Tool calls', num: true },
  { key: 'errors', label: 'Errors', num: true },
  { key: 'costUsd', label: 'Cost', num: true },
];

/**
 * The order of the list as a menu and a direction button: on a phone the table's headers, which sort it, are hidden
 * (the rows are cards), so this takes their place there (styles.css `.sort-picker`). Same rules as the headers.
 */
export function SortPicker({
  sort,
  onSort,
  searching,
}: {
  sort: Sort;
  onSort: (key: SortKey) => void;
  searching: boolean;
}) {
  const label = COLUMNS.find((c) => c.key === sort.key)?.label ?? sort.key;
  // A search lists its hits in relevance order: no column order to pick, and none shown as if it applied.
  if (searching) {
    return (
      <div className="sort-picker" data-testid="sort-picker">
        <span className="dim" data-testid="sort-relevance">
          Best matches first
        </span>
      </div>
    );
  }
  return (
    <div className="sort-picker" data-testid="sort-picker">
      <label>
        <span className="dim">Sort by</span>{' '}
        <select
          className="select"
          value={sort.key}
          onChange={(e) => onSort(e.target.value as SortKey)}
          data-testid="sort-key"
        >
          {COLUMNS.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn small"
        onClick={() => onSort(sort.key)}
        aria-label={`${label}, ${sort.dir === 1 ? 'ascending' : 'descending'}: reverse`}
        data-testid="sort-dir"
      >
        {sort.dir === 1 ? '↑' : '↓'}
      </button>
    </div>
  );
}

const TELEMETRY_TITLE = "The agent's own telemetry joined to this transcript: its model and tool times are measured";

/** The sessions as a table (cards on narrow screens: styles.css `.cards-on-narrow`). */
export function SessionTable({
  rows,
  sort,
  onSort,
  searching,
  searchText,
  measured,
}: {
  rows: readonly SessionRow[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  searching: boolean;
  searchText: string;
  /** Sessions Claude Code's telemetry reported: their times are measured. */
  measured?: ReadonlySet<string>;
}) {
  // Each id as short as it can be and still tell its session from the others listed (Codex's share their first 8).
  const short = useMemo(() => shortRefs(rows.map((r) => r.id)), [rows]);
  return (
    <table className="table" data-testid="sessions-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            // The click is the header's (its whole cell); the button in it is what the keyboard reaches and names:
            // Enter and Space click it, and the click bubbles to the cell.
            <th
              key={c.key}
              className={['sortable', c.num ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ')}
              onClick={() => onSort(c.key)}
              aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className="th-sort" data-testid={`sort-by-${c.key}`}>
                {c.label}
                {sort.key === c.key && !searching && (
                  <span className="arrow" aria-hidden="true">
                    {sort.dir === 1 ? '↑' : '↓'}
                  </span>
                )}
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <SessionRowView
            key={r.id}
            row={r}
            shortId={short.get(r.id) ?? r.id}
            searchText={searching ? searchText : undefined}
            measured={measured?.has(r.id) === true}
          />
        ))}
      </tbody>
    </table>
  );
}

function SessionRowView({
  row: r,
  shortId,
  searchText,
  measured,
}: {
  row: SessionRow;
  shortId: string;
  searchText: string | undefined;
  measured: boolean;
}) {
  const href = sessionHref(
    r.id,
    r.matchCallId,
    searchText === undefined ? undefined : hitFindText(searchText, r.snippet),
  );
  const recent = fmtRecent(r.startedAt);
  const real = r.errors - r.expectedErrors;
  // no active time without a wall time (null), rather than "0 ms"
  const active = r.time ? activeMs(r.time) : null;
  return (
    <tr
      data-testid="session-row"
      data-session={r.id}
      onClick={() => {
        window.location.hash = href;
      }}
    >
      <td className="c-title">
        <div className="session-title">
          {r.isLive && (
            <span className="badge live" data-testid="live-badge">
              live
            </span>
          )}
          {r.archived && <ArchivedBadge />}
          <a className="t" href={href} onClick={(e) => e.stopPropagation()} style={{ color: 'inherit' }}>
            {(r.title ? plainText(r.title) : '') ||
              (r.tier === 'summary' ? (
                <span className="dim" data-testid="title-hidden" title={TIER_TITLE.summary}>
                  Title not shared (summary tier)
                </span>
              ) : (
                <span className="dim">Untitled session</span>
              ))}
          </a>
        </div>
        <div className="session-meta">
          <AgentBadge agent={r.agent} />
          <SecretsBadge count={r.secrets} />
          {measured && (
            <span className="badge accent" data-testid="telemetry-badge" title={TELEMETRY_TITLE}>
              telemetry
            </span>
          )}
          <TeamBadge row={r} />
          <span className="mono" title={r.id} data-testid="session-ref">
            {shortId}
          </span>
          {r.models.slice(0, 2).map((m) => (
            <span key={m}>{modelLabel(m)}</span>
          ))}
          {r.versions.length > 0 && <span>v{r.versions.join(', ')}</span>}
        </div>
        {r.snippet && <Snippet text={r.snippet} />}
      </td>
      <td className="c-project">
        {/* cut at its start where it is too long, where the project's own name is */}
        <span className="project one-line path-tail" title={r.projectPath ?? ''}>
          <bdi>{shortPath(r.projectPath)}</bdi>
        </span>
      </td>
      <td data-label="Started" data-testid="session-started">
        {recent && <div>{recent}</div>}
        <div className={recent ? 'dim when-abs' : 'when-abs'} style={recent ? { fontSize: 12 } : undefined}>
          {fmtDate(r.startedAt)}
        </div>
      </td>
      <td className="num" data-label="Time">
        <div title="Wall time: first record to last" data-testid="session-wall">
          {fmtDuration(r.durationMs)} <span className="dim">wall</span>
        </div>
        {active !== null && (
          <div className="dur-active" title="Active time: wall time less idle gaps" data-testid="session-active">
            {fmtDuration(active)} <span className="dim">active</span>
          </div>
        )}
        <TimeBar time={r.time} width={72} />
      </td>
      <td className="num c-messages" data-label="Messages">
        {fmtNumber(r.messages)}
      </td>
      <td className="num" data-label="Tool calls">
        {fmtNumber(r.toolCalls)}
      </td>
      <td className="num" data-label="Errors">
        {real > 0 ? <span className="err-count">{real}</span> : <span className="dim">0</span>}
        {r.expectedErrors > 0 && (
          <div className="exp-count" style={{ fontSize: 11.5 }} title="Expected errors (normal work)">
            +{r.expectedErrors} expected
          </div>
        )}
        {(r.apiErrors ?? 0) > 0 && (
          <div className="err-text" style={{ fontSize: 11.5 }} title={FAILED_REQUESTS_TIP} data-testid="api-errors">
            +{r.apiErrors} API
          </div>
        )}
      </td>
      <td
        className={`num cost ${r.costUsd === null ? 'unknown' : ''}`}
        data-label="Cost"
        data-testid="session-cost"
        title={costGapsNote(r)}
      >
        {fmtCost(r.costUsd, r)}
      </td>
    </tr>
  );
}
