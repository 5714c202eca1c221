/**
 * One OTLP/HTTP export request → decoded and stored, or the one-line reason it was not: the same rule whether it
 * runs in the receiver's worker thread (`otlp-worker.ts`) or, without a built worker or a file index, in this one.
 */
import { decodeOtlpRequest, type OtelRecord, type OtelSignal, type OtlpRequest } from '@agentdash/core';
import type { StoreReport } from '@agentdash/index';

export type IngestOutcome =
  | { readonly ok: true; readonly report: StoreReport; readonly sessionIds: readonly string[] }
  | { readonly ok: false; readonly status: 400 | 413 | 503; readonly reason: string };

export type IngestRequest = OtlpRequest & { readonly signal: OtelSignal };

function sessionIdsOf(records: readonly OtelRecord[]): string[] {
  const ids = new Set<string>();
  for (const r of records) {
    if (r.kind === 'unknown') continue;
    const id = r.attributes['session.id'];
    if (typeof id === 'string' && id !== '') ids.add(id);
  }
  return [...ids];
}

/** Decode `request` and store its records with `store` (one transaction); never throws. */
export function ingestOtlp(
  request: IngestRequest,
  store: (records: readonly OtelRecord[]) => StoreReport,
): IngestOutcome {
  const decoded = decodeOtlpRequest(request);
  const failure = decoded.ok ? undefined : decoded.issues[0];
  if (failure !== undefined) {
    // a gzip body inflating past the cap is too large, as one over it before inflating is
    return {
      ok: false,
      status: failure.code === 'too_large' ? 413 : 400,
      reason: `${failure.code}: ${failure.message}`,
    };
  }
  try {
    return { ok: true, report: store(decoded.records), sessionIds: sessionIdsOf(decoded.records) };
  } catch {
    // Busy or full: the exporter retries on 503.
    return { ok: false, status: 503, reason: 'telemetry could not be stored now; retry' };
  }
}

/** What the receiver posts to its worker thread, and what comes back. */
export interface IngestMessage {
  readonly id: number;
  readonly request: IngestRequest;
}

export interface IngestAnswer {
  readonly id: number;
  readonly outcome: IngestOutcome;
}
