import type { CallDto, DataKind, TypedResult } from '../data/types';

/** A finished, successful call as the API gives it, for rendering tests: its result `content` typed as `typed`. */
export function callOf(
  name: string,
  input: unknown,
  content: string,
  typed: TypedResult,
  toolKind: DataKind | null,
  typedInput: CallDto['typedInput'] = {},
): CallDto {
  return {
    kind: 'tool-call',
    id: 'toolu_1',
    name,
    canonicalName: name,
    toolKind,
    input,
    typedInput,
    timestamp: null,
    status: 'ok',
    durationMs: 12,
    durations: [],
    agentId: null,
    subagentKey: null,
    subagent: null,
    result: { isError: false, content, toolUseResult: undefined, typed, error: null, images: [], timestamp: null },
    truncated: false,
  };
}
