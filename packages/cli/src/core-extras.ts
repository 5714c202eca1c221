import { type ToolCall, type ToolEnvelope, toEnvelope, typedResultJsonSchemas } from '@agentdash/core';

export type Envelope = ToolEnvelope;

/** The seed-004 envelope of a call's result (core's `toEnvelope`). */
export function envelopeOf(call: ToolCall): Envelope {
  return toEnvelope(call);
}

/** JSON Schemas of the typed results, keyed by result kind. */
export function typedResultSchemas(): Record<string, unknown> {
  return { ...typedResultJsonSchemas() };
}
