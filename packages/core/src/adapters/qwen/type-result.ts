import { isRecord, num } from '../../internal/guards.js';
import { toolResultOf } from '../../model/build-typed-result.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';
import { typeGeminiToolResult } from '../gemini/results/type-result.js';
import { geminiNameOf, kindOfQwenTool } from './tool-names.js';

/**
 * Type a Qwen Code result with the Gemini adapter's typers: the shapes are Gemini's (`functionResponse` output or
 * error, the call's `toolCallResult` with `status` and `resultDisplay`). One difference: Qwen Code itself marks a
 * shell command that exited non-zero `status: "error"` (grep's exit 1 stays a success), where Gemini CLI writes
 * `success`; such a result is handed over as Gemini writes it, so it is typed as the other agents' shell exits are
 * (category `exit-code`, the code on the error) rather than as a tool error.
 */
export function typeQwenResult(call: RawCall, raw: RawResult): ToolResult {
  const recorded = isRecord(raw.toolUseResult) ? raw.toolUseResult : undefined;
  const display = isRecord(recorded?.resultDisplay) ? recorded.resultDisplay : undefined;
  const shellExit =
    raw.isError && kindOfQwenTool(call.name) === 'bash' && (num(display?.exitCode) ?? 0) !== 0
      ? { ...recorded, status: 'success' }
      : recorded;
  const outcome = typeGeminiToolResult({
    name: call.name,
    canonicalName: geminiNameOf(call.name),
    input: call.input,
    content: raw.content,
    toolUseResult: shellExit ?? raw.toolUseResult,
    isError: raw.isError,
  });
  return toolResultOf(raw, outcome);
}
