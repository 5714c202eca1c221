import type { ComponentType } from 'react';
import type { CallDto, TypedResultKind } from '../data/types';
import { baseName } from '../ui/format';
import { AgentRenderer } from './agent';
import { arr, input, obj, type RendererProps, str, tur } from './common';
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

/** A one-line summary of a call for its header. */
export function callSummary(call: CallDto): string {
  const i = input(call);
  const t = tur(call);
  const file = str(i.file_path) ?? str(i.notebook_path) ?? str(i.filePath);
  switch (call.canonicalName) {
    case 'Bash':
      return str(i.description) ?? str(i.command) ?? '';
    case 'Read':
    case 'Edit':
    case 'Write':
    case 'MultiEdit':
    case 'NotebookEdit':
    case 'LSP':
      return file ? `${baseName(file)}  ${file}` : '';
    case 'Grep':
    case 'Glob':
      return `${str(i.pattern) ?? ''}${str(i.path) ? `  in ${str(i.path)}` : ''}`;
    case 'WebSearch':
      return str(i.query) ?? '';
    case 'WebFetch':
      return str(i.url) ?? '';
    case 'Agent':
      return str(i.description) ?? '';
    case 'TodoWrite': {
      const todos = arr(i.todos).map(obj);
      const done = todos.filter((x) => x.status === 'completed').length;
      return `${done}/${todos.length} done`;
    }
    case 'TaskOutput':
    case 'TaskStop':
      return str(i.bash_id) ?? str(i.task_id) ?? str(i.shell_id) ?? '';
    case 'AskUserQuestion':
      return arr(i.questions)
        .map((q) => str(obj(q).question) ?? '')
        .join(' · ');
    case 'ExitPlanMode':
      return (
        (str(i.plan) ?? '')
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.replace(/^#+\s*/, '') ?? ''
      );
    case 'Skill':
      return str(i.skill) ?? str(i.command) ?? '';
    case 'TaskCreate':
      return str(i.subject) ?? '';
    case 'TaskUpdate':
    case 'TaskGet':
      return `#${str(i.taskId) ?? ''}`;
    case 'CronCreate':
      return `${str(i.cron) ?? ''}  ${str(i.prompt) ?? ''}`;
    case 'CronDelete':
      return str(i.id) ?? '';
    case 'ToolSearch':
      return str(i.query) ?? '';
    default: {
      if (str(t.message)) return str(t.message) ?? '';
      const first = Object.values(i).find((v) => typeof v === 'string');
      return typeof first === 'string' ? first : '';
    }
  }
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
