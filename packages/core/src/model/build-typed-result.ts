import { isRecord } from '../internal/guards.js';
import type { ImageValue, ResultContent } from './content.js';
import type { RawResult } from './raw.js';
import type { ToolResult } from './tool-call.js';
import type { ToolError } from './tool-error.js';
import { type DataKind, resultDataSchemas, type TypedResult } from './typed-result.js';

/*
 * Helpers every adapter uses to build its typed results, so the rules (validate against the kind's schema, no
 * undefined values, never throw) are written once. Internal to core: adapters import them, the public API does not
 * re-export them.
 */

/** Drop `undefined` properties, deeply (keeps typed results JSON-clean and `exactOptionalPropertyTypes`-safe). */
export function stripUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => stripUndefined(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    // `for…in` over a plain object is its own keys in `Object.entries`' order, without an array per entry.
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const v = value[key];
      if (v !== undefined) out[key] = stripUndefined(v);
    }
    return out as T;
  }
  return value;
}

/**
 * A typed result of one kind: `build` gives the data, which is validated against the kind's schema. Undefined when
 * `build` throws, gives undefined, or gives data the schema rejects: the caller then keeps the result `unknown`.
 */
export function buildTypedResult(kind: DataKind, tool: string, build: () => unknown): TypedResult | undefined {
  let raw: unknown;
  try {
    raw = build();
  } catch {
    return undefined;
  }
  if (raw === undefined) return undefined;
  const parsed = resultDataSchemas[kind].safeParse(stripUndefined(raw));
  if (!parsed.success) return undefined;
  // The schema's copy of stripped data has no undefined values as a rule: copied again only when it has some.
  const data = parsed.data;
  return (isStripped(data) ? { kind, tool, data } : stripUndefined({ kind, tool, data })) as TypedResult;
}

/**
 * Whether `stripUndefined` would give `value` back as it is: plain objects and arrays all the way down, no property
 * undefined (its copy would equal it).
 */
export function isStripped(value: unknown): boolean {
  if (Array.isArray(value)) {
    for (const v of value) if (!isStripped(v)) return false;
    return true;
  }
  if (!isRecord(value)) return true;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    const v = value[key];
    if (v === undefined || !Object.hasOwn(value, key) || !isStripped(v)) return false;
  }
  return true;
}

export { lineCount } from './line-count.js';

/** Lines added and removed by a patch's hunks (`lines` prefixed with " ", "+" or "-"). */
export function patchCounts(hunks: readonly { readonly lines: readonly string[] }[]): {
  linesAdded: number;
  linesRemoved: number;
} {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) linesAdded += 1;
      else if (line.startsWith('-')) linesRemoved += 1;
    }
  }
  return { linesAdded, linesRemoved };
}

/** The result of a tool (or a shape) no typer knows: the content and the structured output kept as written. */
export function unknownTypedResult(tool: string, content: ResultContent, toolUseResult: unknown): TypedResult {
  return stripUndefined({ kind: 'unknown', tool, content, toolUseResult });
}

/** The images of a result's content. */
export function imagesOf(content: ResultContent): ImageValue[] {
  return typeof content === 'string' ? [] : content.filter((b): b is ImageValue => b.kind === 'image');
}

/** Everything known about one tool result, for typing it. */
export interface ResultInput {
  /** Tool name as written. */
  readonly name: string;
  readonly canonicalName: string;
  readonly input: unknown;
  readonly content: ResultContent;
  /** The structured output the agent wrote beside the content (`RawResult.toolUseResult`); undefined when absent. */
  readonly toolUseResult: unknown;
  readonly isError: boolean;
}

/** What an adapter's typing found out about one result. */
export interface TypedOutcome {
  readonly typed: TypedResult;
  readonly error: ToolError | undefined;
  readonly images: readonly ImageValue[];
}

/** A raw result with what typing found out: the `ToolResult` every adapter's `typeResult` returns. */
export function toolResultOf(raw: RawResult, outcome: TypedOutcome): ToolResult {
  return {
    toolUseId: raw.toolUseId,
    uuid: raw.uuid,
    timestamp: raw.timestamp,
    loc: raw.loc,
    isError: raw.isError,
    content: raw.content,
    toolUseResult: raw.toolUseResult,
    typed: outcome.typed,
    error: outcome.error,
    images: [...outcome.images],
  };
}
