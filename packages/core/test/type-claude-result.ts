import { typeToolResult } from '../src/adapters/claude-code/results/type-result.js';
import { canonicalToolName } from '../src/adapters/claude-code/tool-names.js';
import type { TypedOutcome } from '../src/model/build-typed-result.js';
import type { ResultContent } from '../src/model/content.js';

/** A Claude Code tool result typed as the adapter types it, for the typed-result suites. */
export function typeOf(
  name: string,
  content: ResultContent,
  options: { input?: unknown; toolUseResult?: unknown; isError?: boolean } = {},
): TypedOutcome {
  return typeToolResult({
    name,
    canonicalName: canonicalToolName(name),
    input: options.input ?? {},
    content,
    toolUseResult: options.toolUseResult,
    isError: options.isError ?? false,
  });
}
