/**
 * One transcript line parsed as the JSON object the line-per-record agents (Codex CLI, Copilot CLI, OpenCode, Qwen
 * Code) write on each line, with the three issues a line can have. Internal: not re-exported.
 */

import { messageOf } from '../errors.js';
import type { ParseIssue } from '../model/issue.js';
import { isRecord } from './guards.js';
import { capDepth, tooDeepMessage } from './json-depth.js';

/**
 * The line's object, capped at `MAX_JSON_DEPTH` levels (`capDepth`); undefined when the line is not JSON
 * (`invalid_json`) or not an object (`not_an_object`). Each issue goes to `onIssue`, a capped one (`too_deep`) beside
 * the object it leaves. Never throws.
 */
export function parseObjectLine(
  text: string,
  onIssue: (code: ParseIssue['code'], message: string) => void,
): Record<string, unknown> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    onIssue('invalid_json', `invalid JSON: ${messageOf(error)}`);
    return undefined;
  }
  const capped = capDepth(raw);
  if (capped.replaced > 0) onIssue('too_deep', tooDeepMessage(capped.replaced));
  if (!isRecord(capped.value)) {
    onIssue('not_an_object', 'line is JSON but not an object');
    return undefined;
  }
  return capped.value;
}
