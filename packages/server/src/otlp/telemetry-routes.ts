/**
 * `GET /api/telemetry/sessions` (sessions known only from telemetry), `/sessions/:id` (one session's measured time
 * and cost beside what AgentDash infers from its transcript; `/measured/:id` the same or null, never a 404), `/sessions/:id/steps` (its calls from telemetry),
 * `/ids` (every session telemetry names) and `/setup` (the receiver, and the `env` lines for Claude Code).
 */

import type {
  MeasuredResponse,
  SessionTelemetryDto,
  TelemetryIdsResponse,
  TelemetrySessionsResponse,
  TelemetrySetupResponse,
  TelemetryStepsResponse,
  TimeFigure,
} from '@agentdash/api';
import { claudeCodeTelemetryEnv, codexTelemetryToml, geminiTelemetrySettings } from '@agentdash/core';
import type { CostGaps } from '@agentdash/core/present';
import type {
  AgentIndex,
  MeasuredCall,
  MeasuredRequest,
  SessionSummary,
  SessionTelemetry,
  TelemetryStep,
} from '@agentdash/index';
import { Hono } from 'hono';
import { HttpError } from '../http-error.js';
import { DEFAULT_OTLP_PORT } from './listen.js';

export type { SessionTelemetryDto, TimeFigure } from '@agentdash/api';

/** A client cost this far from the computed one (relative) is flagged. */
export const COST_TOLERANCE = 0.01;

/** Steps sent for one session at most (a session of thousands of calls still answers fast). */
export const MAX_TELEMETRY_STEPS = 5000;

/** `/sessions/:id/steps`' answer from up to `MAX_TELEMETRY_STEPS + 1` steps (one more tells that there are more). */
export function telemetryStepsResponse(sessionId: string, steps: readonly TelemetryStep[]): TelemetryStepsResponse {
  return {
    sessionId,
    steps: steps.slice(0, MAX_TELEMETRY_STEPS),
    truncated: steps.length > MAX_TELEMETRY_STEPS,
  };
}

/** `serve`'s OTLP receiver: its endpoint, or why it is not listening (a port in use). */
export type OtlpState = { readonly endpoint: string } | { readonly error: string };

export function sessionTelemetryDto(
  telemetry: SessionTelemetry,
  summary: SessionSummary | undefined,
  measured: { readonly calls: Map<string, MeasuredCall>; readonly requests: Map<string, MeasuredRequest> },
): SessionTelemetryDto {
  const computed = summary?.costUsd ?? null;
  const gaps: CostGaps = {
    ...(summary !== undefined && summary.unpricedModels.length > 0 ? { unpricedModels: summary.unpricedModels } : {}),
    ...(summary?.inputUnrecordedModels !== undefined ? { inputUnrecordedModels: summary.inputUnrecordedModels } : {}),
    ...(summary?.outputUnrecordedModels !== undefined
      ? { outputUnrecordedModels: summary.outputUnrecordedModels }
      : {}),
  };
  // A client that exports no cost (Codex CLI, Gemini CLI) has nothing to compare; a computed cost without some model's
  // (no price for it) has nothing to compare with.
  const difference =
    computed === null || computed === 0 || !telemetry.costReported || gaps.unpricedModels !== undefined
      ? null
      : (telemetry.costUsd - computed) / computed;
  const figure = (measured: number, has: boolean, inferred: number | undefined): TimeFigure =>
    has || inferred === undefined ? { ms: measured, source: 'measured' } : { ms: inferred, source: 'inferred' };
  return {
    sessionId: telemetry.sessionId,
    hasTranscript: summary !== undefined,
    // measured once the client reported a request, a failed one too
    modelTime: figure(telemetry.modelMs, telemetry.apiRequests + telemetry.apiErrors > 0, summary?.time.modelMs),
    toolTime: figure(telemetry.toolMs, telemetry.toolCalls > 0, summary?.time.toolMs),
    permissionWaitMs: telemetry.toolCalls > 0 ? telemetry.permissionWaitMs : null,
    inferred: summary === undefined ? null : { modelMs: summary.time.modelMs, toolMs: summary.time.toolMs },
    cost: {
      clientUsd: telemetry.costUsd,
      computedUsd: computed,
      difference,
      flagged: difference !== null && Math.abs(difference) > COST_TOLERANCE,
      gaps,
    },
    telemetry,
    calls: Object.fromEntries(measured.calls),
    requests: Object.fromEntries(measured.requests),
  };
}

/** What `/api/telemetry/setup` says: the lines come from core's `claudeCodeTelemetryEnv`, as `otel setup`'s do. */
export function telemetrySetup(otlp: OtlpState | undefined): TelemetrySetupResponse {
  const fallback = `http://127.0.0.1:${DEFAULT_OTLP_PORT}`;
  const endpoint = otlp !== undefined && 'endpoint' in otlp ? otlp.endpoint : fallback;
  const reason =
    otlp === undefined
      ? 'serve was started with --no-otlp'
      : 'error' in otlp
        ? `the OTLP receiver could not listen: ${otlp.error.split('\n')[0]}`
        : null;
  return setupFor(endpoint, reason, null);
}

/** A team server's placeholder for the token each machine puts in its lines (a viewer's token is refused). */
export const DEVICE_TOKEN_PLACEHOLDER = '<device token>';

/**
 * What a team server's `/api/telemetry/setup` says: it receives OTLP on its own port (`origin`, as the dashboard
 * reached it), from exporters sending a device's token.
 */
export function teamTelemetrySetup(origin: string): TelemetrySetupResponse {
  return setupFor(origin, null, `Bearer ${DEVICE_TOKEN_PLACEHOLDER}`);
}

function setupFor(endpoint: string, reason: string | null, authorization: string | null): TelemetrySetupResponse {
  const auth = authorization ?? undefined;
  return {
    listening: reason === null,
    endpoint,
    reason,
    authorization,
    env: claudeCodeTelemetryEnv(endpoint, auth),
    codexToml: codexTelemetryToml(endpoint, 'json', auth),
    // a team server's lines leave tool details and prompts out (core's claude-env.ts says why)
    geminiSettings: geminiTelemetrySettings(endpoint, authorization !== null),
  };
}

/**
 * The same routes on a server without a local index (a team server): nothing received, so the dashboard's questions
 * get empty answers rather than 404s.
 */
export function noTelemetryRoutes(): Hono {
  const routes = new Hono();
  routes.get('/setup', (c) =>
    c.json({ ...telemetrySetup(undefined), reason: 'this server does not receive telemetry' }),
  );
  routes.get('/ids', (c) => c.json({ sessionIds: [] } satisfies TelemetryIdsResponse));
  routes.get('/sessions', (c) => c.json({ sessions: [] } satisfies TelemetrySessionsResponse));
  routes.get('/measured/:id', (c) => c.json({ telemetry: null } satisfies MeasuredResponse));
  return routes;
}

/**
 * `roots`: the served sources, within which a session reference is read (as the session routes read it, app-services'
 * `foundOf`): the same session under two folders the index holds is one here.
 */
export function telemetryRoutes(index: AgentIndex, otlp?: OtlpState, roots: readonly string[] = []): Hono {
  const routes = new Hono();
  const sessionOf = (ref: string) => index.getSession(ref, roots.length > 0 ? { paths: roots } : undefined);
  routes.get('/setup', (c) => c.json(telemetrySetup(otlp)));
  routes.get('/ids', (c) =>
    c.json({ sessionIds: index.telemetry.telemetrySessionIds() } satisfies TelemetryIdsResponse),
  );
  routes.get('/sessions', (c) =>
    c.json({ sessions: index.telemetry.telemetryOnlySessions() } satisfies TelemetrySessionsResponse),
  );
  const dtoOf = (ref: string): SessionTelemetryDto | undefined => {
    const summary = sessionOf(ref);
    const telemetry = index.telemetry.sessionTelemetry(summary?.id ?? ref);
    if (telemetry === undefined) return undefined;
    const measured = {
      calls: index.telemetry.measuredCalls(telemetry.sessionId),
      requests: index.telemetry.measuredRequests(telemetry.sessionId),
    };
    return sessionTelemetryDto(telemetry, summary, measured);
  };
  routes.get('/sessions/:id', (c) => {
    const dto = dtoOf(c.req.param('id'));
    if (dto === undefined) throw new HttpError(404, 'no telemetry for this session');
    return c.json(dto);
  });
  // The dashboard asks for every session it opens, most of which have no telemetry: not an error there.
  routes.get('/measured/:id', (c) =>
    c.json({ telemetry: dtoOf(c.req.param('id')) ?? null } satisfies MeasuredResponse),
  );
  routes.get('/sessions/:id/steps', (c) => {
    const ref = c.req.param('id');
    const sessionId = sessionOf(ref)?.id ?? ref;
    const steps = index.telemetry.timeline(sessionId, MAX_TELEMETRY_STEPS + 1);
    // a session with telemetry but none of it a step (a plugin loaded, settings read) has no steps, as listed
    if (steps.length === 0 && index.telemetry.sessionTelemetry(sessionId) === undefined) {
      throw new HttpError(404, 'no telemetry for this session');
    }
    return c.json(telemetryStepsResponse(sessionId, steps));
  });
  return routes;
}
