/**
 * `GET /api/telemetry/sessions` (sessions known only from telemetry) and `GET /api/telemetry/sessions/:id` (one
 * session's measured time and cost beside what AgentDash infers from its transcript).
 */
import type { AgentIndex, MeasuredCall, MeasuredRequest, SessionSummary, SessionTelemetry } from '@agentdash/index';
import { Hono } from 'hono';
import { HttpError } from '../http-error.js';

/** A client cost this far from the computed one (relative) is flagged. */
export const COST_TOLERANCE = 0.01;

/** One figure, and where it comes from: the client's own measurement, or AgentDash's inference from timestamps. */
export interface TimeFigure {
  readonly ms: number;
  readonly source: 'measured' | 'inferred';
}

export interface SessionTelemetryDto {
  readonly sessionId: string;
  /** Whether a transcript of the session is indexed (false: known only from telemetry). */
  readonly hasTranscript: boolean;
  /**
   * Model and tool time: the sums of the client's `api_request` and `tool_result` durations when telemetry has
   * them (the whole session, subagents included), else the transcript's partition (main thread).
   */
  readonly modelTime: TimeFigure;
  readonly toolTime: TimeFigure;
  /** Waits for a permission answer (`blocked_on_user` spans); null without telemetry spans. */
  readonly permissionWaitMs: number | null;
  /** What the transcript's timestamps give (core's `partitionTime`), for comparison; null without a transcript. */
  readonly inferred: { readonly modelMs: number; readonly toolMs: number } | null;
  readonly cost: {
    /** The client's own `cost_usd`, summed. */
    readonly clientUsd: number;
    /** AgentDash's, from the transcript's tokens and its price table; null when unknown. */
    readonly computedUsd: number | null;
    /** (client − computed) / computed; null when there is no computed cost. */
    readonly difference: number | null;
    /** The difference is over 1 %. */
    readonly flagged: boolean;
  };
  readonly telemetry: SessionTelemetry;
  /** Per call id: the client's measured run (`tool_result`), success, and permission wait; for the timeline. */
  readonly calls: Readonly<Record<string, MeasuredCall>>;
  /** Per request id: the client's measured request (`api_request`): duration, time to first token, cost. */
  readonly requests: Readonly<Record<string, MeasuredRequest>>;
}

export function sessionTelemetryDto(
  telemetry: SessionTelemetry,
  summary: SessionSummary | undefined,
  measured: { readonly calls: Map<string, MeasuredCall>; readonly requests: Map<string, MeasuredRequest> },
): SessionTelemetryDto {
  const computed = summary?.costUsd ?? null;
  const difference = computed === null || computed === 0 ? null : (telemetry.costUsd - computed) / computed;
  const figure = (measured: number, has: boolean, inferred: number | undefined): TimeFigure =>
    has || inferred === undefined ? { ms: measured, source: 'measured' } : { ms: inferred, source: 'inferred' };
  return {
    sessionId: telemetry.sessionId,
    hasTranscript: summary !== undefined,
    modelTime: figure(telemetry.modelMs, telemetry.apiRequests > 0, summary?.time.modelMs),
    toolTime: figure(telemetry.toolMs, telemetry.toolCalls > 0, summary?.time.toolMs),
    permissionWaitMs: telemetry.toolCalls > 0 ? telemetry.permissionWaitMs : null,
    inferred: summary === undefined ? null : { modelMs: summary.time.modelMs, toolMs: summary.time.toolMs },
    cost: {
      clientUsd: telemetry.costUsd,
      computedUsd: computed,
      difference,
      flagged: difference !== null && Math.abs(difference) > COST_TOLERANCE,
    },
    telemetry,
    calls: Object.fromEntries(measured.calls),
    requests: Object.fromEntries(measured.requests),
  };
}

export function telemetryRoutes(index: AgentIndex): Hono {
  const routes = new Hono();
  routes.get('/sessions', (c) => c.json({ sessions: index.telemetry.telemetryOnlySessions() }));
  routes.get('/sessions/:id', (c) => {
    const ref = c.req.param('id');
    const summary = index.getSession(ref);
    const telemetry = index.telemetry.sessionTelemetry(summary?.id ?? ref);
    if (telemetry === undefined) throw new HttpError(404, 'no telemetry for this session');
    const measured = {
      calls: index.telemetry.measuredCalls(telemetry.sessionId),
      requests: index.telemetry.measuredRequests(telemetry.sessionId),
    };
    return c.json(sessionTelemetryDto(telemetry, summary, measured));
  });
  return routes;
}
