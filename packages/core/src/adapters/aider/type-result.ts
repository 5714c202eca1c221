import { isRecord, str } from '../../internal/guards.js';
import { buildTypedResult, toolResultOf, unknownTypedResult } from '../../model/build-typed-result.js';
import { resultText } from '../../model/content.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';

/**
 * An edit's outcome as Aider printed it: `Applied edit to F` (an edit of F; a SEARCH part left empty made or
 * replaced the file; a whole file listed, in the `whole` edit format, is a write of F); failed: `Skipping edits to F` (the person refused: user-rejected, expected), `The LLM did not
 * conform to the edit format` (validation), `# N SEARCH/REPLACE block failed to match!` (string-not-found).
 */
export function typeAiderResult(call: RawCall, raw: RawResult): ToolResult {
  const input = isRecord(call.input) ? call.input : {};
  const text = resultText(raw.content);
  if (raw.isError) {
    const outcome = isRecord(raw.toolUseResult) ? raw.toolUseResult.outcome : undefined;
    const error =
      outcome === 'skipped'
        ? ({ category: 'user-rejected', severity: 'expected', message: text } as const)
        : outcome === 'no-match'
          ? ({ category: 'string-not-found', severity: 'error', message: text } as const)
          : ({ category: 'validation', severity: 'error', message: text } as const);
    return toolResultOf(raw, { typed: { kind: 'error', tool: call.name, message: text }, error, images: [] });
  }
  const filePath = str(input.filePath) ?? /^Applied edit to (.+)$/.exec(text)?.[1];
  if (call.name === 'write') {
    // Aider's `Applied edit to F` does not say whether F was new: a whole file listed is read as F's new text.
    const content = str(input.content);
    const written = buildTypedResult('write', call.name, () => ({
      filePath,
      operation: 'update',
      content,
      structuredPatch: [],
    }));
    return toolResultOf(raw, {
      typed: written ?? unknownTypedResult(call.name, raw.content, raw.toolUseResult),
      error: undefined,
      images: [],
    });
  }
  const search = str(input.search);
  const typed = buildTypedResult('edit', call.name, () => ({
    filePath,
    operation: search === '' ? 'create' : 'update',
    oldString: search,
    newString: str(input.replace),
    structuredPatch: [],
  }));
  return toolResultOf(raw, {
    typed: typed ?? unknownTypedResult(call.name, raw.content, raw.toolUseResult),
    error: undefined,
    images: [],
  });
}
