import type { ComponentType } from 'react';
import type { CallDto, TypedResultKind } from '../data/types';
import { callDetail } from '../ui/format';
import { AgentRenderer } from './agent';
import { type RendererProps, renderKindOf } from './common';
import { EditRenderer, MultiEditRenderer, NotebookEditRenderer, ReadRenderer, WriteRenderer } from './files';
import {
  AgentWaitRenderer,
  GoalRenderer,
  ListAgentsRenderer,
  LsRenderer,
  McpResourcesRenderer,
  MemoryRenderer,
  MonitorRenderer,
  PatchRenderer,
  ProcessListRenderer,
  ReadMcpResourceRenderer,
  ReportFindingsRenderer,
  ScheduleWakeupRenderer,
  SendMessageRenderer,
  TaskCompleteRenderer,
  TopicRenderer,
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
  goal: GoalRenderer,
  memory: MemoryRenderer,
  topic: TopicRenderer,
  'process-list': ProcessListRenderer,
  'task-complete': TaskCompleteRenderer,
  'agent-wait': AgentWaitRenderer,
  error: GenericRenderer,
  unknown: GenericRenderer,
};

export { renderKindOf };

export function rendererFor(call: CallDto): ComponentType<RendererProps> {
  return RENDERERS[renderKindOf(call)];
}

/** Kinds whose renderer shows the failure itself (the block does not repeat the error message). */
const SHOWS_OWN_ERROR: ReadonlySet<TypedResultKind> = new Set(['bash']);
export const showsOwnError = (call: CallDto) => SHOWS_OWN_ERROR.has(renderKindOf(call));

/** Kinds whose block is open when the timeline loads. */
const OPEN_BY_DEFAULT: ReadonlySet<TypedResultKind> = new Set([
  'edit',
  'multi-edit',
  'write',
  'todo-write',
  'ask-user-question',
  'exit-plan-mode',
  'agent',
  'bash',
]);
export const opensByDefault = (call: CallDto) => OPEN_BY_DEFAULT.has(renderKindOf(call));

type IconFamily = 'mcp' | 'shell' | 'file' | 'search' | 'web' | 'agent';
const ICON_FAMILY: Partial<Record<TypedResultKind, IconFamily>> = {
  mcp: 'mcp',
  bash: 'shell',
  'task-output': 'shell',
  'process-list': 'shell',
  'task-complete': 'agent',
  'agent-wait': 'agent',
  'task-stop': 'shell',
  monitor: 'shell',
  read: 'file',
  edit: 'file',
  'multi-edit': 'file',
  write: 'file',
  patch: 'file',
  'notebook-edit': 'file',
  lsp: 'file',
  grep: 'search',
  glob: 'search',
  'tool-search': 'search',
  'web-search': 'web',
  'web-fetch': 'web',
  agent: 'agent',
  'send-message': 'agent',
  'list-agents': 'agent',
};
/** The CSS class of a call's icon, by the family of its kind. */
export function iconClassOf(call: CallDto): string {
  return `ic-${ICON_FAMILY[renderKindOf(call)] ?? 'plan'}`;
}

/**
 * Whether a call's summary is cut at its start when it does not fit: a file tool's names a path, whose file name (at
 * its end) is what tells one call from the next; every other summary (a command, a query) is cut at its end.
 */
export const summaryCutsAtStart = (call: CallDto): boolean => ICON_FAMILY[renderKindOf(call)] === 'file';

/** What core's summaries write after a file's path: a count in brackets (`(63 lines)`), an edit's `+3 −1`. */
const AFTER_PATH = /\s+(?:\([^()]*\)|\+[\d,]+ [−-][\d,]+)$/;

/**
 * A file tool's summary as its path and what follows it (`docs/orders.md`, ` (63 lines)`): the path is cut at its
 * start and the rest kept whole (cut as one, at its start, a Write at 360 px showed "… lines)" alone).
 */
export function pathAndTail(summary: string): readonly [path: string, tail: string] {
  const tail = AFTER_PATH.exec(summary);
  return tail === null || tail.index === 0 ? [summary, ''] : [summary.slice(0, tail.index), summary.slice(tail.index)];
}

/** A one-line summary of a call for its header: core's rule, the same words as the CLI and the index. */
export function callSummary(call: CallDto, cwd?: string): string {
  return callDetail(call, cwd);
}

const GLYPHS: Partial<Record<TypedResultKind, string>> = {
  bash: '$',
  read: 'R',
  edit: 'E',
  'multi-edit': 'E',
  write: 'W',
  grep: '⌕',
  glob: '*',
  agent: 'A',
  'todo-write': '☑',
  'web-search': 'S',
  'web-fetch': '↓',
  'task-output': '>',
  'task-stop': '■',
  'ask-user-question': '?',
  'exit-plan-mode': 'P',
  'enter-plan-mode': 'P',
  mcp: 'M',
};

/** Short glyph for a tool's icon: by its kind, else the first letter of its name. */
export function toolGlyph(call: CallDto): string {
  return GLYPHS[renderKindOf(call)] ?? call.canonicalName.slice(0, 1).toUpperCase();
}
