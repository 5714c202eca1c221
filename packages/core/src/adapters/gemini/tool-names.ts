import type { DataKind } from './results/kinds.js';

/**
 * Former Gemini CLI tool names → current name. `search_file_content` (0.20) became `grep_search` (0.61); the 0.20
 * subagent tool `codebase_investigator` is one agent among others behind `invoke_agent` in 0.61 and keeps its name.
 */
export const geminiToolAliases = {
  search_file_content: 'grep_search',
} as const satisfies Record<string, string>;

export function canonicalGeminiToolName(name: string): string {
  return Object.hasOwn(geminiToolAliases, name) ? geminiToolAliases[name as keyof typeof geminiToolAliases] : name;
}

/** Canonical Gemini tool → the shared result kind. MCP tools and subagents are recognised apart (see `kindOf`). */
export const geminiToolKinds: Readonly<Record<string, DataKind>> = {
  run_shell_command: 'bash',
  read_file: 'read',
  read_many_files: 'read',
  write_file: 'write',
  replace: 'edit',
  glob: 'glob',
  grep_search: 'grep',
  list_directory: 'ls',
  google_web_search: 'web-search',
  web_fetch: 'web-fetch',
  write_todos: 'todo-write',
  invoke_agent: 'agent',
  codebase_investigator: 'agent',
  save_memory: 'memory',
  update_topic: 'topic',
  list_background_processes: 'process-list',
  complete_task: 'task-complete',
};

/** What a call's recorded result says about the tool beyond its name. */
export interface ToolHints {
  /** `displayName` of the call, e.g. `echo (rec MCP Server)` for an MCP tool in 0.20. */
  readonly displayName: string | undefined;
  /** `agentId` on the call: it ran a subagent (0.61). */
  readonly agentId: string | undefined;
}

/** The MCP server of a 0.20 tool whose display name says `(<server> MCP Server)`. */
export function mcpServerOfDisplayName(displayName: string | undefined): string | undefined {
  return displayName === undefined ? undefined : /\((\S+) MCP Server\)\s*$/.exec(displayName)?.[1];
}

/**
 * A call's tool name as 0.61 writes it: 0.20 names an MCP tool bare (`echo`, its display name `echo (rec MCP
 * Server)`), 0.61 `mcp_<server>_<tool>` (`mcp_rec_echo`). The same tool, one name in the statistics, its kind known
 * by its name before its result is in.
 */
export function geminiCallName(call: { readonly name?: unknown; readonly displayName?: unknown }): string {
  const written = typeof call.name === 'string' ? call.name : '(unnamed tool)';
  const server = mcpServerOfDisplayName(typeof call.displayName === 'string' ? call.displayName : undefined);
  return server === undefined || written.startsWith('mcp_') ? written : `mcp_${server}_${written}`;
}

/** The kind for a Gemini tool: by name, `mcp` for MCP tools, `agent` for a call that ran a subagent. */
export function kindOfGeminiTool(canonicalName: string, hints: ToolHints): DataKind | undefined {
  if (Object.hasOwn(geminiToolKinds, canonicalName)) return geminiToolKinds[canonicalName];
  if (canonicalName.startsWith('mcp_') || mcpServerOfDisplayName(hints.displayName) !== undefined) return 'mcp';
  if (hints.agentId !== undefined) return 'agent';
  return undefined;
}
