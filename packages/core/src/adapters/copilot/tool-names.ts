import type { DataKind } from '../../model/typed-result.js';

/** Copilot CLI's built-in tools and the kind each one's results are typed onto. */
const KINDS = {
  bash: 'bash',
  powershell: 'bash',
  read_bash: 'task-output',
  write_bash: 'task-output',
  read_powershell: 'task-output',
  write_powershell: 'task-output',
  stop_bash: 'task-stop',
  stop_powershell: 'task-stop',
  view: 'read',
  create: 'write',
  edit: 'edit',
  str_replace_editor: 'edit',
  grep: 'grep',
  rg: 'grep',
  glob: 'glob',
  web_fetch: 'web-fetch',
  fetch: 'web-fetch',
  web_search: 'web-search',
  task: 'agent',
  update_todo: 'todo-write',
} as const satisfies Record<string, DataKind>;

/** Copilot CLI has renamed no tool in the versions read (1.0.64, 1.0.68, 1.0.102): names are kept as written. */
export function canonicalCopilotToolName(name: string): string {
  return name;
}

/**
 * The kind of a tool's results from its name alone. MCP tools are named `<server>-<tool>` by the client, which
 * cannot be told from a built-in name with a dash; they are known from their start line (`mcpServerName`).
 */
export function kindOfCopilotTool(name: string): DataKind | undefined {
  return Object.hasOwn(KINDS, name) ? KINDS[name as keyof typeof KINDS] : undefined;
}
