import { isRecord, str } from '../../internal/guards.js';
import type { CallInput } from '../../model/call-input.js';
import { typeGeminiInput } from '../gemini/type-input.js';
import { geminiNameOf } from './tool-names.js';

/**
 * Qwen Code's tool arguments under the shared names: Gemini CLI's, by the tool each derives from (`edit` takes
 * `replace`'s `file_path`/`old_string`/`new_string`), plus the `glob` filter Qwen's `grep_search` takes.
 */
export function typeQwenInput(canonicalName: string, input: unknown): CallInput {
  const typed = typeGeminiInput(geminiNameOf(canonicalName), input);
  if (canonicalName === 'grep_search' && isRecord(input) && typed.glob === undefined) {
    const glob = str(input.glob);
    if (glob !== undefined) return { ...typed, glob };
  }
  return typed;
}
