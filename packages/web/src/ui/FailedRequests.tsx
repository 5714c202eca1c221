import { nounFor } from './format';

/** What a failed request is, where a figure of them is shown. */
export const FAILED_REQUESTS_TIP =
  'Requests to the model that failed for good: an API error ended the turn (a 400, or a 500 or 429 past its retries)';

/**
 * A session's failed requests, and the attempts that failed and were sent again (a 529 Overloaded, a dropped
 * stream), beside its errors; nothing when there were none.
 */
export function FailedRequests({ failed, retried }: { failed: number; retried: number }) {
  if (failed === 0 && retried === 0) return null;
  return (
    <span
      className="stat-lead"
      data-testid="failed-requests"
      title={`${FAILED_REQUESTS_TIP}. Retried: attempts that failed and were sent again.`}
    >
      {failed > 0 ? <b className="err-text">{failed}</b> : <b>0</b>} {nounFor(failed, 'failed request')}
      {retried > 0 && <span className="dim"> +{retried} retried</span>}
    </span>
  );
}
