/**
 * Former tool names → current name. The client renamed tools over time; a renamed tool is one kind.
 * Sources: agent-sdk LEGACY_TOOL_NAME_ALIASES plus the renames it leaves out (FORMAT.md §6).
 */
export const toolNameAliases = {
  Task: 'Agent',
  BashOutput: 'TaskOutput',
  BashOutputTool: 'TaskOutput',
  AgentOutputTool: 'TaskOutput',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  SlashCommand: 'Skill',
  exit_plan_mode: 'ExitPlanMode',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
  MCPSearch: 'ToolSearch',
  RunWorkflow: 'Workflow',
} as const satisfies Record<string, string>;

export function canonicalToolName(name: string): string {
  return Object.hasOwn(toolNameAliases, name) ? toolNameAliases[name as keyof typeof toolNameAliases] : name;
}

export interface McpToolName {
  readonly server: string;
  readonly tool: string;
}

/** `mcp__<server>__<tool>` → its parts; undefined for other names. */
export function parseMcpToolName(name: string): McpToolName | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const sep = rest.indexOf('__');
  if (sep <= 0) return { server: rest, tool: '' };
  return { server: rest.slice(0, sep), tool: rest.slice(sep + 2) };
}
