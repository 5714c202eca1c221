import type { DataKind } from '../gemini/results/kinds.js';
import { kindOfGeminiTool } from '../gemini/tool-names.js';

/**
 * Qwen Code tools whose Gemini CLI ancestor has another name (0.24.4's tool list as sent to the model: `edit`,
 * `agent`, `todo_write`, …); the others (`run_shell_command`, `read_file`, `write_file`, `glob`, `grep_search`,
 * `list_directory`, `web_fetch`, `save_memory`) kept Gemini's name and arguments. Used to reuse the Gemini
 * adapter's input and result typers; the names shown stay Qwen's.
 */
const geminiNames = {
  edit: 'replace',
  agent: 'invoke_agent',
  task: 'invoke_agent',
  todo_write: 'write_todos',
  web_search: 'google_web_search',
} as const satisfies Record<string, string>;

/** Qwen Code names its tools as it sends them: the canonical name is the written one. */
export function canonicalQwenToolName(name: string): string {
  return name;
}

/** The Gemini CLI tool a Qwen Code tool derives from (its own name when unchanged). */
export function geminiNameOf(name: string): string {
  return Object.hasOwn(geminiNames, name) ? geminiNames[name as keyof typeof geminiNames] : name;
}

/** The shared kind of a Qwen Code tool: its Gemini ancestor's; MCP tools by their `mcp_` prefix. */
export function kindOfQwenTool(name: string): DataKind | undefined {
  return kindOfGeminiTool(geminiNameOf(name), { displayName: undefined, agentId: undefined });
}
