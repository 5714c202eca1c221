import { isRecord, str } from '../../internal/guards.js';
import { compactInput } from '../../model/build-call-input.js';
import type { CallInput } from '../../model/call-input.js';

/** An edit's SEARCH and REPLACE parts under the shared names. */
export function typeAiderInput(canonicalName: string, input: unknown): CallInput {
  if (canonicalName !== 'edit' || !isRecord(input)) return {};
  return compactInput({ filePath: str(input.filePath), oldString: str(input.search), newString: str(input.replace) });
}
