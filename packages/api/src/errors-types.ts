/**
 * `GET /api/sessions/:id/errors`: where a session's errors show in its timeline. Browser-safe: types only.
 * @module
 */
import type { ErrorCategory, ErrorSeverity } from '@agentdash/core/model';

/**
 * One errored call of a session, or one request to the model that failed (`GET /api/sessions/:id/errors`): where it
 * shows in the main timeline.
 */
export interface SessionErrorHit {
  /** The errored call; null for a failed request (an API error that ended its turn), which its event shows. */
  readonly callId: string | null;
  /** Index of the main-timeline event that shows it (the Agent call's event for one inside a subagent). */
  readonly index: number;
  /** Agent calls to expand, outermost first, to reach it. */
  readonly expand: readonly string[];
  /** The call's tool; null for a failed request. */
  readonly tool: string | null;
  readonly severity: ErrorSeverity;
  readonly category: ErrorCategory | null;
  readonly timestamp: string | null;
}

export interface SessionErrorsResponse {
  readonly errors: readonly SessionErrorHit[];
}
