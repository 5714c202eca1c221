import type { ImageValue, ResultContent } from '../../../model/content.js';
import type { ToolError } from '../../../model/tool-error.js';
import type { TypedResult } from './typed-result.js';

/** Everything known about one tool result, for typing it. */
export interface ResultInput {
  /** Tool name as written. */
  readonly name: string;
  readonly canonicalName: string;
  readonly input: unknown;
  readonly content: ResultContent;
  /** `toolUseResult` as written; undefined when absent. */
  readonly toolUseResult: unknown;
  readonly isError: boolean;
}

export interface TypedOutcome {
  readonly typed: TypedResult;
  readonly error: ToolError | undefined;
  readonly images: readonly ImageValue[];
}

/** Type one tool result. Never throws. */
export function typeToolResult(input: ResultInput): TypedOutcome {
  if (input.isError) {
    const message = typeof input.content === 'string' ? input.content : '';
    return {
      typed: { kind: 'error', tool: input.name, message },
      error: { category: 'other', severity: 'error', message },
      images: [],
    };
  }
  return {
    typed: { kind: 'unknown', tool: input.name, content: input.content, toolUseResult: input.toolUseResult },
    error: undefined,
    images: [],
  };
}
