import { isRecord, str } from '../../internal/guards.js';
import { compactInput } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';

/** An edit's SEARCH and REPLACE parts, or a whole file's name and text, under the shared names. */
export function typeAiderInput(canonicalName: string, input: unknown): CallInput {
  if (!isRecord(input)) return {};
  if (canonicalName === 'write') return compactInput({ filePath: str(input.filePath), content: str(input.content) });
  if (canonicalName !== 'edit') return {};
  return compactInput({ filePath: str(input.filePath), oldString: str(input.search), newString: str(input.replace) });
}
