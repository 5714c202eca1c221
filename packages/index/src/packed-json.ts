/**
 * Tool inputs and results are stored as JSON text, or deflated (`calls.input`, `results.content`,
 * `results.tool_use_result`): they are read back only to classify, summarise and pair calls, and the transcript
 * itself is in the archive, so the index keeps them as small as it can (issue 8: store content once).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Object keys that tool inputs and results repeat (Claude Code's tools above all), least frequent first: deflate's
 * preset dictionary, so that even a short value compresses. Part of the stored format: changing it needs a schema
 * step that reads derived data again (schema.ts).
 */
const KEYS = `blockedBy agentType toolsUsed output_tokens_details thinking_tokens server_tool_use web_search_requests
  web_fetch_requests iterations speed toolStats readCount bashCount editFileCount linesAdded linesRemoved otherToolCount
  contents hunks commandName questions question header options multiSelect task resolvedModel canContinueAgent name
  isAgent run_in_background model skill bash_id matches total_deferred_tools searchCount max_results mediaType results
  tool_use_id durationSeconds success mimeType cells timeout subject error backgroundTaskId numMatches label taskId
  message task_id data id cell_type edit_mode shell_id bytes code codeText notebook_path result plan limit agentId uri
  title totalDurationMs totalTokens totalToolUseCount usage input_tokens cache_creation_input_tokens
  cache_read_input_tokens output_tokens service_tier cache_creation ephemeral_1h_input_tokens ephemeral_5m_input_tokens
  cellType language new_source offset truncated server source subagent_type toolName replaceAll replace_all query
  oldTodos newTodos todos durationMs cell_id url prompt kind text path noOutputExpected output_mode mode filenames
  numFiles pattern originalFile startLine totalLines file interrupted isImage stdout stderr numLines command activeForm
  description type status oldString newString userModified old_string new_string structuredPatch filePath file_path
  content oldStart oldLines newStart newLines lines`.split(/\s+/);
const FLAGS = `"multiSelect":false "isAgent":false "run_in_background":false "success":true "truncated":false
  "replace_all":true "noOutputExpected":false "replace_all":false "originalFile":null "interrupted":false
  "isImage":false "replaceAll":false "userModified":false`.split(/\s+/);
const DICTIONARY = Buffer.from(FLAGS.join('') + KEYS.map((k) => `"${k}":`).join(''), 'utf8');

/** The texts of the deflated forms `packJson` made in this thread, while they are alive (not inflated again). */
const textOfPacked = new WeakMap<Uint8Array, string>();

/** The stored form of a JSON value: its text, or its deflated bytes when they are shorter. */
export function packJson(value: unknown): string | Buffer {
  const text = JSON.stringify(value) ?? 'null';
  const packed = deflateRawSync(Buffer.from(text, 'utf8'), { level: 6, dictionary: DICTIONARY });
  if (packed.length >= Buffer.byteLength(text, 'utf8')) return text;
  textOfPacked.set(packed, text);
  return packed;
}

/** The JSON text of a stored form: plain JSON text, or deflated JSON bytes. */
export function unpackText(stored: string | Buffer | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  return textOfPacked.get(stored) ?? inflateRawSync(stored, { dictionary: DICTIONARY }).toString('utf8');
}

/** The value of a stored form: plain JSON text, or deflated JSON bytes. */
export function unpackJson(stored: string | Buffer | Uint8Array): unknown {
  return JSON.parse(unpackText(stored));
}
