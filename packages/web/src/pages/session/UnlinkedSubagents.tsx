import { COMPACTION_RUN, isCompactionRun } from '@agentdash/core/present';
import { type ReactNode, useState } from 'react';
import type { SessionDetail, SubagentInfo } from '../../data/types';
import { SubagentTimeline } from '../../timeline/SubagentTimeline';
import { fmtNumber, nounFor } from '../../ui/format';

/**
 * The subagents no call of the timeline started (its call is not in this transcript, or no link was found); none
 * when the session's main file is missing, as they are then its main timeline (an HTML export written before the
 * header said so lists them).
 */
export const unlinkedSubagents = (detail: SessionDetail): readonly SubagentInfo[] =>
  detail.mainFile === false ? [] : detail.subagents.filter((s) => s.linkedBy === 'unlinked');

/**
 * Subagents that no call of the timeline started (a Codex review thread whose spawning call is not in the parent's
 * rollout): each is shown here, its own timeline opened on
 * demand in a box of its own, so that none of what the agent did is out of reach. Closed, a line each.
 */
export function UnlinkedSubagents({ detail }: { detail: SessionDetail }) {
  const all = unlinkedSubagents(detail);
  // a compaction's summarising run (Claude Code's `agent-acompact-…`): said as what it is, a line of its own
  const compactions = all.filter((s) => isCompactionRun(s.agentId));
  const unlinked = all.filter((s) => !isCompactionRun(s.agentId));
  if (compactions.length > 0) {
    return (
      <>
        {compactions.map((sub) => (
          <CompactionRun key={sub.key} sub={sub} />
        ))}
        {unlinked.length > 0 && <UnlinkedSubagents detail={{ ...detail, subagents: unlinked }} />}
      </>
    );
  }
  if (unlinked.length === 0) return null;
  const only = unlinked.length === 1 ? unlinked[0] : undefined;
  if (only !== undefined) return <UnlinkedSubagent sub={only} />;
  // Several: one line for them all (a phone's header stays a line taller at most), each of its own once opened.
  return (
    <Line
      testId="unlinked-subagents"
      what={<b>{unlinked.length} subagents</b>}
      calls={unlinked.reduce((n, s) => n + s.toolCalls, 0)}
      errors={unlinked.reduce((n, s) => n + s.errors, 0)}
    >
      {unlinked.map((sub) => (
        <UnlinkedSubagent key={sub.key} sub={sub} />
      ))}
    </Line>
  );
}

/** A compaction's summarising run: said as what it is (its prompt is the client's, the same every time). */
const CompactionRun = ({ sub }: { sub: SubagentInfo }) => <UnlinkedSubagent sub={sub} compaction />;

function UnlinkedSubagent({ sub, compaction = false }: { sub: SubagentInfo; compaction?: boolean }) {
  return (
    <Line
      testId={compaction ? 'compaction-run' : 'unlinked-subagent'}
      what={<b>{compaction ? 'Compaction' : 'Subagent'}</b>}
      {...(compaction ? { why: `: ${COMPACTION_RUN}` } : { prompt: sub.prompt })}
      events={sub.events}
      calls={sub.toolCalls}
      errors={sub.errors}
    >
      <div className="unlinked-body">
        <SubagentTimeline agentKey={sub.key} />
      </div>
    </Line>
  );
}

/** One closed line of unlinked subagents, its figures on it; its content made only once it is opened. */
function Line(props: {
  testId: string;
  what: ReactNode;
  /** What is said of it after its name (default: that no call of the timeline started it). */
  why?: string;
  prompt?: string | null | undefined;
  events?: number;
  calls: number;
  errors: number;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { events, calls, errors } = props;
  return (
    <details
      className="notice reading unlinked-subagent"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      data-testid={props.testId}
    >
      <summary>
        {props.what}
        {props.why ?? ' not started by a call of this timeline'}
        {props.prompt !== undefined && (
          <>
            : <span className="dim">{firstLine(props.prompt)}</span>
          </>
        )}
        {events !== undefined && ` · ${fmtNumber(events)} ${nounFor(events, 'event')}`} · {fmtNumber(calls)}{' '}
        {nounFor(calls, 'tool call')}
        {errors > 0 && (
          <>
            {' '}
            · <span className="err-text">{errors}</span> {nounFor(errors, 'error')}
          </>
        )}
      </summary>
      {open && props.children}
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
