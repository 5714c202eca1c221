import { useEffect, useState } from 'react';
import type { SessionDetail } from '../../data/types';
import { fmtNumber } from '../../ui/format';

/** How long the first page of events may take before the page says why it is waiting. */
const PATIENCE_MS = 1500;

/**
 * While the first page of a session's events has not come after a moment: the server reads the whole transcript
 * once when a session is first opened (a session of hundreds of MB takes seconds), so the page says so instead of
 * showing empty rows without a word; says why when a page could not be had, the first or a later one (its rows
 * stay empty until the retries get it). Gone once any page is there and none failed since.
 */
export function ReadingNotice({
  detail,
  waiting,
  failed,
}: {
  readonly detail: SessionDetail;
  readonly waiting: boolean;
  /** Why the events could not be had: said at once, instead of waiting on. */
  readonly failed?: string | undefined;
}) {
  const [late, setLate] = useState(false);
  const id = detail.session.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another session starts its wait afresh
  useEffect(() => {
    setLate(false);
    if (!waiting) return;
    const timer = setTimeout(() => setLate(true), PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [id, waiting]);
  if (waiting && failed !== undefined) {
    return (
      <div className="notice warn reading" role="alert" data-testid="session-events-error">
        <b>The events of this session could not be loaded:</b> {failed}
      </div>
    );
  }
  if (failed !== undefined) {
    // a later page failed (the server stopped, or is restarting): its rows stay empty until it comes
    return (
      <div className="notice warn reading" role="alert" data-testid="session-page-error">
        <b>Some events of this session could not be loaded:</b> {failed}. Their rows fill in when the server answers.
      </div>
    );
  }
  if (!waiting || !late) return null;
  // what its transcript holds (a resume's copies of an earlier conversation too), not only what the list counts as its own
  const { toolCalls, prompts, assistantMessages } = detail.counts;
  const messages = prompts + assistantMessages;
  return (
    <div className="notice reading" role="status" data-testid="session-reading">
      <b>Reading this session's transcript…</b> A session is read once, when it is first opened: with{' '}
      {fmtNumber(messages)} messages and {fmtNumber(toolCalls)} tool calls this one takes a while. Its pages come at
      once after that.
    </div>
  );
}
