/**
 * One transcript line parsed as the JSON the line-per-record agents (Codex CLI, Copilot CLI, Gemini CLI 0.61, OpenCode,
 * Qwen Code) write on each line, with the issues a line can have. Internal: not re-exported.
 */

import { messageOf } from '../errors.js';
import type { ParseIssue } from '../model/issue.js';
import { splitGluedObjects } from './glued-objects.js';
import { isRecord } from './guards.js';
import { capDepth, tooDeepMessage } from './json-depth.js';

type OnIssue = (code: ParseIssue['code'], message: string) => void;

/** One JSON text's value capped at `MAX_JSON_DEPTH` levels (`too_deep`), or undefined when it is not JSON. */
function parseCapped(text: string, onIssue: OnIssue): { readonly value: unknown } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    onIssue('invalid_json', `invalid JSON: ${messageOf(error)}`);
    return undefined;
  }
  const capped = capDepth(raw);
  if (capped.replaced > 0) onIssue('too_deep', tooDeepMessage(capped.replaced));
  return { value: capped.value };
}

/**
 * The line's JSON values, each capped (`capDepth`): its one value, or, when the line is objects written back to back
 * (`…}{"type":…`, a client's bug; Entire's copies of transcripts hold some), each of them, said once as
 * `glued_records` (each part's own issues beside it); empty when the line is not JSON (`invalid_json`). Never throws.
 */
export function parseJsonValues(text: string, onIssue: OnIssue): unknown[] {
  let failure: string | undefined;
  const one = parseCapped(text, (code, message) => {
    if (code === 'invalid_json') failure = message;
    else onIssue(code, message);
  });
  if (one !== undefined) return [one.value];
  const parts = splitGluedObjects(text);
  if (parts === undefined) {
    onIssue('invalid_json', failure ?? 'invalid JSON');
    return [];
  }
  onIssue('glued_records', `${parts.length} records written on one line; split and kept`);
  return parts.flatMap((part) => {
    const parsed = parseCapped(part, onIssue);
    return parsed === undefined ? [] : [parsed.value];
  });
}

/** The line's objects (`parseJsonValues`); a value that is no object is said as `not_an_object` and left out. */
export function parseObjectLines(text: string, onIssue: OnIssue): Record<string, unknown>[] {
  return parseJsonValues(text, onIssue).filter((value): value is Record<string, unknown> => {
    if (isRecord(value)) return true;
    onIssue('not_an_object', 'line is JSON but not an object');
    return false;
  });
}
