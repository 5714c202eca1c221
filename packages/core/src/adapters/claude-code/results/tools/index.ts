/** The kind → parser registry of the Claude Code tools; one file a tool family holds the parsers. */
import type { DataKind } from '../../../../model/typed-result.js';
import { agent, listAgents, sendMessage, workflow } from './agents.js';
import { edit, ls, multiEdit, notebookEdit, read, write } from './files.js';
import { askUserQuestion, enterPlanMode, exitPlanMode, skill } from './interaction.js';
import { listMcpResources, mcp, readMcpResource, readMcpResourceDir, toolSearch } from './mcp.js';
import { glob, grep } from './search.js';
import type { DataParser } from './shared.js';
import { bash, monitor, taskOutput, taskStop } from './shell.js';
import {
  cronCreate,
  cronDelete,
  cronList,
  scheduleWakeup,
  taskCreate,
  taskGet,
  taskList,
  taskUpdate,
  todoWrite,
} from './tasks.js';
import { webFetch, webSearch } from './web.js';
import { enterWorktree, exitWorktree, lsp, reportFindings } from './workspace.js';

export { parseAnswerPairs } from './interaction.js';
export type { DataParser, ParseContext } from './shared.js';

/** Canonical tool name → kind. Renamed tools are canonicalized before the lookup. */
export const toolKinds: Readonly<Record<string, DataKind>> = {
  Bash: 'bash',
  PowerShell: 'bash',
  TaskOutput: 'task-output',
  TaskStop: 'task-stop',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'multi-edit',
  NotebookEdit: 'notebook-edit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
  TodoWrite: 'todo-write',
  Agent: 'agent',
  WebFetch: 'web-fetch',
  WebSearch: 'web-search',
  AskUserQuestion: 'ask-user-question',
  ExitPlanMode: 'exit-plan-mode',
  EnterPlanMode: 'enter-plan-mode',
  Skill: 'skill',
  LSP: 'lsp',
  ListMcpResourcesTool: 'list-mcp-resources',
  ReadMcpResourceTool: 'read-mcp-resource',
  ReadMcpResourceDirTool: 'read-mcp-resource-dir',
  CronCreate: 'cron-create',
  CronDelete: 'cron-delete',
  CronList: 'cron-list',
  TaskCreate: 'task-create',
  TaskGet: 'task-get',
  TaskUpdate: 'task-update',
  TaskList: 'task-list',
  EnterWorktree: 'enter-worktree',
  ExitWorktree: 'exit-worktree',
  Monitor: 'monitor',
  Workflow: 'workflow',
  SendMessage: 'send-message',
  ToolSearch: 'tool-search',
  ListAgents: 'list-agents',
  ReportFindings: 'report-findings',
  ScheduleWakeup: 'schedule-wakeup',
};

/** The kind for a tool: `mcp` for `mcp__*`, the table entry otherwise; undefined for tools not known. */
export function kindOfTool(canonicalName: string): DataKind | undefined {
  if (canonicalName.startsWith('mcp__')) return 'mcp';
  return Object.hasOwn(toolKinds, canonicalName) ? toolKinds[canonicalName] : undefined;
}

/** One parser per kind a Claude Code tool maps onto (kinds only other agents produce, such as `patch`, have none). */
export const dataParsers: Readonly<Partial<Record<DataKind, DataParser>>> = {
  bash,
  'task-output': taskOutput,
  'task-stop': taskStop,
  read,
  write,
  edit,
  'multi-edit': multiEdit,
  'notebook-edit': notebookEdit,
  glob,
  grep,
  ls,
  'todo-write': todoWrite,
  agent,
  'web-fetch': webFetch,
  'web-search': webSearch,
  'ask-user-question': askUserQuestion,
  'exit-plan-mode': exitPlanMode,
  'enter-plan-mode': enterPlanMode,
  skill,
  lsp,
  'list-mcp-resources': listMcpResources,
  'read-mcp-resource': readMcpResource,
  'read-mcp-resource-dir': readMcpResourceDir,
  'cron-create': cronCreate,
  'cron-delete': cronDelete,
  'cron-list': cronList,
  'task-create': taskCreate,
  'task-get': taskGet,
  'task-update': taskUpdate,
  'task-list': taskList,
  'enter-worktree': enterWorktree,
  'exit-worktree': exitWorktree,
  monitor,
  workflow,
  'send-message': sendMessage,
  'tool-search': toolSearch,
  'list-agents': listAgents,
  'report-findings': reportFindings,
  'schedule-wakeup': scheduleWakeup,
  mcp,
};
