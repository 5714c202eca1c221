/** What every per-tool parser shares: its context, its type and the record coercion. */
import { isRecord } from '../../../../internal/guards.js';
import type { ResultContent } from '../../../../model/content.js';

/** What a per-tool parser sees. */
export interface ParseContext {
  /** Tool name as written. */
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly content: ResultContent;
  /** Plain text of the content. */
  readonly text: string;
  /** `toolUseResult` when it is an object or array; undefined when absent or a string. */
  readonly structured: unknown;
  /** `toolUseResult` when it is a string (LS output, or an odd success). */
  readonly turString: string | undefined;
}

/** Builds a kind's `data` (not yet validated); undefined when the result does not have this tool's shape. */
export type DataParser = (ctx: ParseContext) => unknown;

/** The value when it is an object (not an array); undefined otherwise. */
export const rec = (value: unknown): Record<string, unknown> | undefined => (isRecord(value) ? value : undefined);
