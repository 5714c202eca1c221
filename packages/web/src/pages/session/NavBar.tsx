import type { RefObject } from 'react';
import type { FindResponse, SessionErrorHit } from '../../data/types';

/** `1 error`, `4 errors`. */
const errorsText = (n: number) => `${n} ${n === 1 ? 'error' : 'errors'}`;

/**
 * What the error bar says, as the header counts: the real errors, and the expected ones apart (`4 errors`, `+2
 * expected`); at an error, its place among those of its kind (`Error 3 of 4`, `Expected error 1 of 2`).
 */
export function errorBarText(
  errors: readonly SessionErrorHit[],
  errorPos: number,
  headerErrors: { readonly count: number; readonly expected: number; readonly state: 'loading' | 'failed' } | undefined,
): { readonly position: string; readonly expected: number; readonly real: number } {
  if (headerErrors !== undefined) {
    const real = headerErrors.count - headerErrors.expected;
    const position = `${errorsText(real)}${headerErrors.state === 'loading' ? '…' : ''}`;
    return { position, expected: headerErrors.expected, real };
  }
  const isExpected = (e: SessionErrorHit) => e.severity === 'expected';
  const expected = errors.filter(isExpected).length;
  const real = errors.length - expected;
  const at = errors[errorPos];
  if (errors.length === 0) return { position: 'No errors', expected: 0, real };
  if (at === undefined) return { position: errorsText(real), expected, real };
  const kin = errors.slice(0, errorPos + 1).filter((e) => isExpected(e) === isExpected(at)).length;
  return isExpected(at)
    ? { position: `Expected error ${kin} of ${expected}`, expected: 0, real }
    : { position: `Error ${kin} of ${real}`, expected, real };
}

/** Errors and find-in-session: next/previous error, errors only, find with next/previous match and the hit list. */
export function NavBar({
  errors,
  elsewhere = 0,
  headerErrors,
  errorPos,
  onError,
  errorsOnly,
  onErrorsOnly,
  findInput,
  query,
  onQuery,
  found,
  hitPos,
  onHit,
  showHits,
  onShowHits,
}: {
  errors: readonly SessionErrorHit[];
  /** Errors of the header's count that the timeline cannot step to (in subagents no call started). */
  elsewhere?: number;
  /** The header's error count while the list of errors is on its way, or when it could not be had. */
  headerErrors?:
    | { readonly count: number; readonly expected: number; readonly state: 'loading' | 'failed' }
    | undefined;
  errorPos: number;
  onError: (step: 1 | -1) => void;
  errorsOnly: boolean;
  onErrorsOnly: (on: boolean) => void;
  findInput: RefObject<HTMLInputElement | null>;
  query: string;
  onQuery: (q: string) => void;
  found: FindResponse | undefined;
  hitPos: number;
  onHit: (step: 1 | -1 | { readonly go: number }) => void;
  showHits: boolean;
  onShowHits: (show: boolean) => void;
}) {
  const text = errorBarText(errors, errorPos, headerErrors);
  const hits = found?.hits ?? [];
  return (
    <div className="navbar" data-testid="session-nav">
      <div className="navbar-group">
        <span
          className={`nav-count ${text.real > 0 ? 'err-text' : 'dim'}`}
          data-testid="error-position"
          aria-live="polite"
          title={headerErrors?.state === 'failed' ? 'The list of errors could not be loaded' : undefined}
        >
          {text.position}
        </span>
        {text.expected > 0 && (
          <span
            className="nav-count dim"
            data-testid="errors-expected"
            title="Expected errors: part of normal work (a declined plan, stopping a shell that had finished)"
          >
            +{text.expected} expected
          </span>
        )}
        {headerErrors === undefined && elsewhere > 0 && (
          <span
            className="dim nav-elsewhere"
            data-testid="errors-elsewhere"
            title="In subagents no call of this timeline started: open them under the header"
          >
            +{elsewhere} in subagents above
          </span>
        )}
        <button
          type="button"
          className="btn small"
          onClick={() => onError(-1)}
          disabled={errors.length === 0}
          title="Previous error (E)"
          aria-label="Previous error"
          data-testid="prev-error"
        >
          ↑ Error
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => onError(1)}
          disabled={errors.length === 0}
          title="Next error (e)"
          aria-label="Next error"
          data-testid="next-error"
        >
          ↓ Error
        </button>
        <label className="check" title="Show only the events that hold an error">
          <input
            type="checkbox"
            checked={errorsOnly}
            disabled={errors.length === 0}
            onChange={(e) => onErrorsOnly(e.target.checked)}
            data-testid="errors-only"
          />
          Errors only
        </label>
      </div>
      <div className="navbar-group find">
        <input
          ref={findInput}
          className="input find-input"
          type="search"
          placeholder="Find in session (f)"
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onHit(e.shiftKey ? -1 : 1);
            } else if (e.key === 'Escape') {
              onShowHits(false);
              e.currentTarget.blur();
            }
          }}
          aria-label="Find in session"
          data-testid="find-input"
        />
        {found && (
          <>
            <button
              type="button"
              className="nav-count link-btn"
              onClick={() => onShowHits(!showHits)}
              title="List the matches"
              data-testid="find-count"
              aria-live="polite"
            >
              {found.total === 0 ? 'no match' : `${hitPos >= 0 ? `${hitPos + 1} of ` : ''}${found.total}`}
              {found.total > hits.length ? ` (first ${hits.length})` : ''}
            </button>
            <button
              type="button"
              className="btn small"
              onClick={() => onHit(-1)}
              disabled={hits.length === 0}
              title="Previous match (N, Shift-Enter)"
              aria-label="Previous match"
              data-testid="prev-match"
            >
              ↑
            </button>
            <button
              type="button"
              className="btn small"
              onClick={() => onHit(1)}
              disabled={hits.length === 0}
              title="Next match (n, Enter)"
              aria-label="Next match"
              data-testid="next-match"
            >
              ↓
            </button>
          </>
        )}
      </div>
      {showHits && hits.length > 0 && (
        <ol className="hit-list" data-testid="find-hits">
          {hits.map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: hits keep their order; two may share an event and part
            <li key={`${h.index}:${h.callId ?? ''}:${h.part}:${i}`} className={i === hitPos ? 'current' : ''}>
              <button
                type="button"
                // the list covers the timeline's corner: it closes on the way to the match (the count opens it again)
                onClick={() => {
                  onShowHits(false);
                  onHit({ go: i });
                }}
                data-testid="find-hit"
              >
                <span className="pill">{h.part === 'tool' ? 'tool' : h.part}</span>
                {h.expand.length > 0 && <span className="pill">subagent</span>}
                <span className="hit-snippet">{h.snippet}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
