import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';
import { typeGeminiToolResult } from './results/type-result.js';
import { canonicalGeminiToolName } from './tool-names.js';

/** Type a Gemini call's result (paired by id from the records this adapter emits) onto the shared kinds. */
export function typeGeminiResult(call: RawCall, raw: RawResult): ToolResult {
  const outcome = typeGeminiToolResult({
    name: call.name,
    canonicalName: canonicalGeminiToolName(call.name),
    input: call.input,
    content: raw.content,
    toolUseResult: raw.toolUseResult,
    isError: raw.isError,
  });
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
