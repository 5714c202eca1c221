import { plural } from '@agentdash/core/present';
import { useCallback, useState } from 'react';
import { TelemetryOnlyList } from '../telemetry/TelemetryOnlyList';
import { TelemetrySetup } from '../telemetry/TelemetrySetup';
import { useTelemetryIds } from '../telemetry/use-telemetry';
import { fmtNumber } from '../ui/format';
import { IndexProgress, useIndexStatus } from '../ui/IndexProgress';
import { focusSessionRow, useKeys } from '../ui/keys';
import { emptyNote, loadStateOf } from '../ui/load-state';
import { NoTranscriptsNotice } from '../ui/NoTranscriptsNotice';
import { useAddress } from '../ui/page-address';
import { noteListHref } from '../ui/router';
import { SamplesNotice } from '../ui/SamplesNotice';
import { datesSwapped } from './sessions/day-bounds';
import { useListPlace } from './sessions/list-place';
import { firstDir, listQueryOf, listStateOf } from './sessions/list-url';
import { SessionFilters } from './sessions/SessionFilters';
import { SessionTable, SortPicker } from './sessions/SessionTable';
import { type Filters, isFiltered, type Sort, type SortKey, useSessionList } from './sessions/use-session-list';

/** `query`: the address's query, which holds the list's filters and order (Back from a session finds them again). */
export function SessionsPage({ query }: { readonly query: string }) {
  const [initial] = useState(() => listStateOf(query));
  const [filters, setFilters] = useState<Filters>(initial.filters);
  const [sort, setSort] = useState<Sort>(initial.sort);
  const { data, rows, stale, error, unreachable, showMore, loadingMore, searching, searchText, listKey, restored } =
    useSessionList(filters, sort);
  // Back from a session: at the scroll it was left at, the row opened focused
  const rowsWrap = useListPlace(listKey, restored);
  const indexStatus = useIndexStatus();
  const measured = useTelemetryIds();

  const q = listQueryOf(filters, sort);
  useAddress(q === '' ? '#/' : `#/?${q}`, noteListHref);

  const onSort = useCallback(
    (key: SortKey) =>
      setSort((s) => (s.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: firstDir(key) })),
    [],
  );

  useKeys({ j: () => focusSessionRow(1), k: () => focusSessionRow(-1) });

  const errors = data ? data.totals.errors - data.totals.expectedErrors : 0;
  const hidden = data?.hiddenEmpty ?? 0;
  const filtered = isFiltered(filters, searchText);
  return (
    <div className="page wide">
      <div className="page-head">
        <div>
          <h1 className="page-title">Sessions</h1>
          {/* what a search or a filter found, said when it changes (the summary below also changes with live updates) */}
          <span className="sr-only" role="status" data-testid="sessions-found">
            {data && filtered ? `${plural(data.total, 'session')} found` : ''}
          </span>
          <div className="page-sub" data-testid="sessions-summary">
            {data ? (
              <>
                {plural(data.total, 'session')} · {plural(data.totals.toolCalls, 'tool call')} ·{' '}
                {plural(errors, 'error')}
                {data.totals.expectedErrors > 0 ? ` + ${fmtNumber(data.totals.expectedErrors)} expected` : ''}
                {(data.totals.apiErrors ?? 0) > 0 ? ` · ${plural(data.totals.apiErrors ?? 0, 'failed request')}` : ''}
                {data.totals.live > 0 ? ` · ${data.totals.live} live` : ''}
                {data.searchCap !== undefined && (
                  <span className="dim" data-testid="search-capped">
                    {' '}
                    · the {fmtNumber(data.searchCap)} best matches: more may match (narrow the words or filters)
                  </span>
                )}
              </>
            ) : (
              emptyNote(loadStateOf(data, error), '')
            )}
          </div>
        </div>
        {(hidden > 0 || filters.showEmpty) && (
          <label className="check list-toggle" title="Sessions without messages, and untitled ones without a tool call">
            <input
              type="checkbox"
              checked={filters.showEmpty}
              onChange={(e) => setFilters({ ...filters, showEmpty: e.target.checked })}
              data-testid="show-empty"
            />
            Show empty and warm-up sessions{hidden > 0 ? ` (${hidden} hidden)` : ''}
          </label>
        )}
      </div>
      <SamplesNotice />
      <NoTranscriptsNotice />
      <IndexProgress status={indexStatus} />
      <SessionFilters filters={filters} onChange={setFilters} facets={data?.facets} />
      <TelemetryOnlyList hidden={filtered} />
      {error && <ListError error={error} unreachable={unreachable} shown={data !== undefined} />}
      <SortPicker sort={sort} onSort={onSort} searching={searching} />
      <div className="table-wrap cards-on-narrow" data-testid="sessions-wrap" aria-busy={stale} ref={rowsWrap}>
        <SessionTable
          rows={rows}
          sort={sort}
          onSort={onSort}
          searching={searching}
          searchText={searchText}
          measured={measured}
        />
        {data && data.total > rows.length && (
          <div className="empty" style={{ padding: 16 }}>
            <button type="button" className="btn" onClick={showMore} disabled={loadingMore} data-testid="show-more">
              Show more ({fmtNumber(data.total - rows.length)} more sessions)
            </button>
          </div>
        )}
        {data && rows.length === 0 && (
          <div className="empty">
            {datesSwapped(filters.since, filters.until)
              ? 'No session can match: the "from" date is after the "to" date (swapped?).'
              : filtered
                ? 'No session matches these filters.'
                : indexStatus?.state === 'indexing'
                  ? 'Indexing… sessions appear here as they are read.'
                  : 'No sessions found.'}
          </div>
        )}
      </div>
      <TelemetrySetup />
    </div>
  );
}

/**
 * Why the list did not load. Without the server the sessions last shown stay, and the note says so plainly (the
 * browser's own words, "Failed to fetch", say nothing to most people); the list asks again until the server answers.
 */
function ListError({ error, unreachable, shown }: { error: string; unreachable: boolean; shown: boolean }) {
  if (!unreachable) return <div className="err-msg">Could not load sessions: {error}</div>;
  return (
    <div className="err-msg" role="status" data-testid="list-unreachable">
      {shown
        ? 'The AgentDash server cannot be reached: these are the sessions as last shown. They update once it answers again.'
        : 'Could not load sessions: the AgentDash server cannot be reached. Trying again…'}
    </div>
  );
}
