import { useState } from 'react';
import type { SessionDetail, SubagentInfo } from '../../data/types';
import { SubagentTimeline } from '../../timeline/SubagentTimeline';
import { fmtNumber, nounFor } from '../../ui/format';

/** The subagents no call of the timeline started (its call is not in this transcript, or no link was found). */
export const unlinkedSubagents = (detail: SessionDetail): readonly SubagentInfo[] =>
  detail.subagents.filter((s) => s.linkedBy === 'unlinked');

/**
 * Subagents that no call of the timeline started (a Codex review thread whose spawning call is not in the parent's
 * rollout, a subagent file of a session whose main file is gone): each is shown here, its own timeline opened on
 * demand in a box of its own, so that none of what the agent did is out of reach. Closed, a line each.
 */
export function UnlinkedSubagents({ detail }: { detail: SessionDetail }) {
  const unlinked = unlinkedSubagents(detail);
  const [open, setOpen] = useState(false);
  if (unlinked.length === 0) return null;
  const only = unlinked.length === 1 ? unlinked[0] : undefined;
  if (only !== undefined) return <UnlinkedSubagent sub={only} />;
  // Several: one line for them all (a phone's header stays a line taller at most), each of its own once opened.
  const calls = unlinked.reduce((n, s) => n + s.toolCalls, 0);
  const real = unlinked.reduce((n, s) => n + s.errors - s.expectedErrors, 0);
  return (
    <details
      className="notice reading unlinked-subagent"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      data-testid="unlinked-subagents"
    >
      <summary>
        <b>{unlinked.length} subagents</b> not started by a call of this timeline · {fmtNumber(calls)}{' '}
        {nounFor(calls, 'tool call')}
        {real > 0 && (
          <>
            {' '}
            · <span className="err-text">{real}</span> {nounFor(real, 'error')}
          </>
        )}
      </summary>
      {open && unlinked.map((sub) => <UnlinkedSubagent key={sub.key} sub={sub} />)}
    </details>
  );
}

function UnlinkedSubagent({ sub }: { sub: SubagentInfo }) {
  const [open, setOpen] = useState(false);
  const real = sub.errors - sub.expectedErrors;
  return (
    <details
      className="notice reading unlinked-subagent"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      data-testid="unlinked-subagent"
    >
      <summary>
        <b>Subagent</b> not started by a call of this timeline: <span className="dim">{firstLine(sub.prompt)}</span> ·{' '}
        {fmtNumber(sub.events)} {nounFor(sub.events, 'event')} · {fmtNumber(sub.toolCalls)}{' '}
        {nounFor(sub.toolCalls, 'tool call')}
        {real > 0 && (
          <>
            {' '}
            · <span className="err-text">{real}</span> {nounFor(real, 'error')}
          </>
        )}
      </summary>
      {open && (
        <div className="unlinked-body">
          <SubagentTimeline agentKey={sub.key} />
        </div>
      )}
    </details>
  );
}

/** A prompt's first line, cut for a one-line summary (the whole text is in the subagent's timeline). */
const firstLine = (prompt: string | null | undefined): string => {
  const line =
    (prompt ?? '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '(no prompt)';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};
