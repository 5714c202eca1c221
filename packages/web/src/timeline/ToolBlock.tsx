import { formatCount } from '@agentdash/core/present';
import { useState } from 'react';
import { api } from '../data/client';
import type { CallDto } from '../data/types';
import {
  callSummary,
  iconClassOf,
  opensByDefault,
  pathAndTail,
  rendererFor,
  renderKindOf,
  showsOwnError,
  summaryCutsAtStart,
  toolGlyph,
} from '../renderers';
import { CallDuration } from '../telemetry/CallDuration';
import { CopyButton } from '../ui/CopyButton';
import { shortRef } from '../ui/router';
import { SubagentErrors } from '../ui/SubagentErrors';
import { useKeptOpen, useTimeline } from './context';

export type DisplayStatus = 'ok' | 'error' | 'expected' | 'pending' | 'unanswered';

function displayStatus(call: CallDto): DisplayStatus {
  switch (call.status) {
    case 'ok':
      return 'ok';
    case 'error':
      return call.result?.error?.severity === 'expected' ? 'expected' : 'error';
    case 'pending':
      return 'pending';
    case 'unanswered':
      return 'unanswered';
    default:
      return call.status satisfies never;
  }
}

const STATUS_LABEL: Record<DisplayStatus, string> = {
  ok: 'ok',
  error: 'error',
  expected: 'expected error',
  pending: 'running',
  unanswered: 'no result',
};

function ErrorBadge({ call }: { call: CallDto }) {
  const error = call.result?.error;
  if (!call.result?.isError) return null;
  const severity = error?.severity ?? 'error';
  return (
    <span
      className={`badge ${severity === 'expected' ? 'expected' : 'error'}`}
      data-testid="error-badge"
      data-severity={severity}
      title={severity === 'expected' ? 'Expected error: part of normal work' : 'Error'}
    >
      {severity === 'expected' ? 'expected · ' : ''}
      {error?.category ?? 'error'}
    </span>
  );
}

/** What a call's copy button copies: the command of a shell call, else its input as JSON. */
function callInputText(call: CallDto): string {
  const input = call.input as Record<string, unknown> | null;
  const command = input && typeof input === 'object' ? input.command : undefined;
  return typeof command === 'string' ? command : JSON.stringify(call.input, null, 2);
}

/** How many characters of each text "Show more" shows (the timeline's pages show 12,000). */
export const MORE_CHARS = 400_000;

export function ToolBlock({ call: initial }: { call: CallDto }) {
  const { sessionId, focus, copied } = useTimeline();
  const copiedFrom = copied?.get(initial.id);
  const [full, setFull] = useState<CallDto | undefined>();
  const [loading, setLoading] = useState(false);
  const call = full && full.id === initial.id && initial.status === full.status ? full : initial;
  const status = displayStatus(call);
  const [open, setOpen] = useKeptOpen(`call:${initial.id}`, {
    call: initial.id,
    initial: () => status === 'error' || opensByDefault(call),
    opensOnFocus: true,
  });

  const Renderer = rendererFor(call);
  const error = call.result?.error;
  const showError = call.result?.isError && !showsOwnError(call);
  const summary = callSummary(call);

  // "Show more" asks for each text cut at MORE_CHARS (an output of tens of MB drawn whole freezes the tab); what is still
  // cut then is there for the asking, with a word that it may be slow.
  const showMore = async (chars?: number) => {
    setLoading(true);
    try {
      setFull(await api.call(sessionId, call.id, chars));
    } finally {
      setLoading(false);
    }
  };
  const shownMore = call === full;

  return (
    <div
      className={`tool st-${status} ${open ? 'open' : ''} ${focus === call.id ? 'highlight-flash' : ''}`}
      data-testid="tool-block"
      data-tool={call.canonicalName}
      data-kind={renderKindOf(call)}
      data-status={status}
      data-call={call.id}
      id={`call-${call.id}`}
    >
      <button
        type="button"
        className="tool-head"
        onClick={() => setOpen((o) => !o)}
        data-testid="tool-head"
        aria-expanded={open}
      >
        {/* drawn marks, not words: the button's name starts with the tool's, its state is aria-expanded */}
        <span className="chev" aria-hidden="true">
          ▶
        </span>
        <span className={`tool-icon ${iconClassOf(call)}`} aria-hidden="true">
          {toolGlyph(call)}
        </span>
        <span className="tool-name">
          {call.canonicalName.startsWith('mcp__')
            ? call.canonicalName.replace(/^mcp__/, '').replace('__', ' · ')
            : call.canonicalName}
        </span>
        {call.name !== call.canonicalName && <span className="tool-alias">({call.name})</span>}
        {summaryCutsAtStart(call) ? (
          <PathSummary summary={summary} />
        ) : (
          <span className="tool-summary" title={summary} data-testid="tool-summary">
            {summary}
          </span>
        )}
        <span className="tool-meta">
          <ErrorBadge call={call} />
          <SubagentErrors sub={call.subagent} />
          {status !== 'error' && status !== 'expected' && (
            <span className={`badge ${status}`} data-testid="status-badge">
              {STATUS_LABEL[status]}
            </span>
          )}
          {copiedFrom === undefined ? (
            <CallDuration call={call} />
          ) : (
            <span
              className="badge neutral"
              data-testid="copied-badge"
              title={
                copiedFrom.sameSession
                  ? `Also in another copy of this session (${shortRef(copiedFrom.ref)}), which counts it: its time here is the copy's`
                  : `Copied into this transcript from session ${shortRef(copiedFrom.ref)} when it was resumed: counted there, and its time is the copy's`
              }
            >
              copied
            </span>
          )}
        </span>
      </button>
      {open && (
        <div className="tool-body">
          {showError && error && (
            <div className={`err-msg ${error.severity === 'expected' ? 'expected' : ''}`} data-testid="error-message">
              {error.message}
            </div>
          )}
          {showError && !error && call.result && (
            <div className="err-msg" data-testid="error-message">
              {typeof call.result.content === 'string' ? call.result.content : 'The tool reported an error.'}
            </div>
          )}
          <Renderer call={call} />
          {/* Below the renderer, in a row of its own: floating over the body it covered the renderer's own top row
              (a shell call's exit badge). */}
          <div className="tool-foot">
            {call.truncated && (
              <div className="truncated-note">
                {shownMore
                  ? `Each text is shown up to ${formatCount(MORE_CHARS)} characters.`
                  : 'Long output was shortened.'}
                <button
                  type="button"
                  className="btn small"
                  onClick={() => showMore(shownMore ? undefined : MORE_CHARS)}
                  disabled={loading}
                  data-testid="show-more"
                  data-step={shownMore ? 'all' : 'more'}
                  title={shownMore ? 'Every character: a very long output may take the page a while' : undefined}
                >
                  {loading ? 'Loading…' : shownMore ? 'Show all' : 'Show more'}
                </button>
              </div>
            )}
            <CopyButton text={() => callInputText(call)} label="Copy input" testId="copy-input" />
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * A file tool's summary: its path cut at its start keeps its file name (drawn right to left, its text isolated left
 * to right), and what follows the path (`(63 lines)`, `+3 −1`) is kept whole beside it.
 */
function PathSummary({ summary }: { summary: string }) {
  const [path, tail] = pathAndTail(summary);
  return (
    <span className="tool-summary-path" title={summary}>
      <span className="tool-summary cut-start" data-testid="tool-summary">
        <bdi>{path}</bdi>
      </span>
      {tail !== '' && <span className="tool-summary-tail">{tail}</span>}
    </span>
  );
}
