import { toolResultOf } from '../../model/build-typed-result.js';
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
  return toolResultOf(raw, outcome);
}
