import type { SessionDetail } from '../../data/types';
import { costGapsNote, fmtCost, fmtNumber, nounFor } from '../../ui/format';
import { sessionHref, shortRef } from '../../ui/router';

/**
 * Says what of this transcript a resume or fork copied from earlier sessions: its calls show in the timeline (marked
 * "copied") but the sessions list, Analytics and Usage count them, and their responses, for the session they come
 * from. Without it the header's tool calls (this session's own) and the timeline's disagree with no reason given.
 */
export function CopiedNotice({ detail }: { detail: SessionDetail }) {
  if (detail.copiedFrom.length === 0) return null;
  return (
    <div className="notice reading copied-notice" role="note" data-testid="copied-notice">
      {detail.copiedFrom.map((from) => (
        <div key={from.ref}>
          {from.sameSession ? 'Another copy of this session, ' : 'Resumed from '}
          <a href={sessionHref(from.ref)} title={from.ref}>
            {from.title ?? shortRef(from.ref)}
          </a>{' '}
          ({shortRef(from.ref)}): <b>{fmtNumber(from.calls)}</b> of its tool calls
          {(from.prompts ?? 0) > 0 && (
            <>
              , <b>{fmtNumber(from.prompts ?? 0)}</b> {nounFor(from.prompts ?? 0, 'prompt')}
            </>
          )}
          {from.responses > 0 && (
            <>
              {' '}
              and <b>{fmtNumber(from.responses)}</b> {nounFor(from.responses, 'response')}
            </>
          )}{' '}
          {from.sameSession ? 'are in this transcript too' : 'are copied into this transcript'}, marked “copied”. They
          count there, not in the counts above
          {from.responses > 0 && (
            <>
              , and their{' '}
              <b className="cost" title={costGapsNote(from)}>
                {fmtCost(from.costUsd, from)}
              </b>{' '}
              is not in the cost above{from.sameSession ? '' : ', nor their time in its wall time'}
            </>
          )}
          .
        </div>
      ))}
    </div>
  );
}
