import type { ToolCall } from '@agentdash/core';
import * as core from '@agentdash/core';

/**
 * Core features that are being added while this package is written: the seed-004 envelope and the JSON Schemas
 * of typed results. Looked up at run time so the CLI works before and after they land.
 */
const coreExports = core as unknown as Record<string, unknown>;

export type Envelope =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly error: string };

/** The seed-004 envelope of a call's result: core's `toEnvelope` when present, else an equivalent built here. */
export function envelopeOf(call: ToolCall): Envelope {
  const toEnvelope = coreExports.toEnvelope;
  if (typeof toEnvelope === 'function') return (toEnvelope as (c: ToolCall) => Envelope)(call);
  const result = call.result;
  if (result === undefined) {
    return {
      success: false,
      error: call.status === 'pending' ? 'no result yet' : 'no result (interrupted or cut off)',
    };
  }
  if (result.isError) return { success: false, error: result.error?.message ?? 'error' };
  const { kind: _kind, ...data } = result.typed as { kind: string } & Record<string, unknown>;
  return { success: true, data };
}

/** JSON Schemas of the typed results, by kind/tool; undefined until core provides them. */
export function typedResultSchemas(): Record<string, unknown> | undefined {
  const fn = coreExports.typedResultJsonSchemas;
  if (typeof fn !== 'function') return undefined;
  return (fn as () => Record<string, unknown>)();
}
