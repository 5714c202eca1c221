import type { ComponentType } from 'react';
import type { CallDto, TypedResultKind } from '../data/types';
import { callDetail } from '../ui/format';
import { AgentRenderer } from './agent';
import type { RendererProps } from './common';
import { EditRenderer, MultiEditRenderer, NotebookEditRenderer, ReadRenderer, WriteRenderer } from './files';
import {
  ListAgentsRenderer,
  LsRenderer,
  McpResourcesRenderer,
  MonitorRenderer,
  PatchRenderer,
  ReadMcpResourceRenderer,
  ReportFindingsRenderer,
  ScheduleWakeupRenderer,
  SendMessageRenderer,
  WorkflowRenderer,
} from './kinds';
import {
  AskUserQuestionRenderer,
  CronRenderer,
  EnterPlanModeRenderer,
  ExitPlanModeRenderer,
  GenericRenderer,
  LspRenderer,
  McpRenderer,
  SkillRenderer,
  WorktreeRenderer,
} from './misc';
import { GlobRenderer, GrepRenderer, ToolSearchRenderer, WebFetchRenderer, WebSearchRenderer } from './search';
import { BashRenderer, ShellOutputRenderer, ShellStopRenderer } from './shell';
import { TaskToolRenderer, TodoWriteRenderer } from './tasks';

/**
 * One renderer per result kind. The mapped type makes the list complete: a kind core adds without a renderer here
 * fails `npm run typecheck`. `error` and `unknown` (a tool core does not know) keep the raw data: the generic one.
 */
const RENDERERS: { readonly [K in TypedResultKind]: ComponentType<RendererProps> } = {
  bash: BashRenderer,
  'task-output': ShellOutputRenderer,
  'task-stop': ShellStopRenderer,
  read: ReadRenderer,
  write: WriteRenderer,
  edit: EditRenderer,
  'multi-edit': MultiEditRenderer,
  patch: PatchRenderer,
  'notebook-edit': NotebookEditRenderer,
  glob: GlobRenderer,
  grep: GrepRenderer,
  ls: LsRenderer,
  'todo-write': TodoWriteRenderer,
  agent: AgentRenderer,
  'web-fetch': WebFetchRenderer,
  'web-search': WebSearchRenderer,
  'ask-user-question': AskUserQuestionRenderer,
  'exit-plan-mode': ExitPlanModeRenderer,
  'enter-plan-mode': EnterPlanModeRenderer,
  skill: SkillRenderer,
  lsp: LspRenderer,
  'list-mcp-resources': McpResourcesRenderer,
  'read-mcp-resource': ReadMcpResourceRenderer,
  'read-mcp-resource-dir': McpResourcesRenderer,
  'cron-create': CronRenderer,
  'cron-delete': CronRenderer,
  'cron-list': CronRenderer,
  'task-create': TaskToolRenderer,
  'task-get': TaskToolRenderer,
  'task-update': TaskToolRenderer,
  'task-list': TaskToolRenderer,
  'enter-worktree': WorktreeRenderer,
  'exit-worktree': WorktreeRenderer,
  monitor: MonitorRenderer,
  workflow: WorkflowRenderer,
  'send-message': SendMessageRenderer,
  'tool-search': ToolSearchRenderer,
  'list-agents': ListAgentsRenderer,
  'report-findings': ReportFindingsRenderer,
  'schedule-wakeup': ScheduleWakeupRenderer,
  mcp: McpRenderer,
  error: GenericRenderer,
  unknown: GenericRenderer,
};

/**
 * The kind a call is shown as: its typed result's kind, else (running, failed, unanswered) the kind its tool's
 * results are typed onto, else `error` or `unknown`.
 */
export function renderKindOf(call: CallDto): TypedResultKind {
  const typed = call.result?.typed;
  if (typed !== undefined && typed.kind !== 'error' && typed.kind !== 'unknown') return typed.kind;
  return call.toolKind ?? typed?.kind ?? 'unknown';
}

export function rendererFor(call: CallDto): ComponentType<RendererProps> {
  return RENDERERS[renderKindOf(call)];
}

/** Tools whose renderer shows the failure itself (the block does not repeat the error message). */
export const SHOWS_OWN_ERROR = new Set(['Bash']);

/** A one-line summary of a call for its header: core's rule, the same words as the CLI and the index. */
export function callSummary(call: CallDto, cwd?: string): string {
  return callDetail(call, cwd);
}

/** Short glyph for a tool's icon. */
export function toolGlyph(call: CallDto): string {
  const n = call.canonicalName;
  if (n.startsWith('mcp__')) return 'M';
  const map: Record<string, string> = {
    Bash: '$',
    Read: 'R',
    Edit: 'E',
    MultiEdit: 'E',
    Write: 'W',
    Grep: '⌕',
    Glob: '*',
    Agent: 'A',
    TodoWrite: '☑',
    WebSearch: 'S',
    WebFetch: '↓',
    TaskOutput: '>',
    TaskStop: '■',
    AskUserQuestion: '?',
    ExitPlanMode: 'P',
    EnterPlanMode: 'P',
  };
  return map[n] ?? n.slice(0, 1).toUpperCase();
}
