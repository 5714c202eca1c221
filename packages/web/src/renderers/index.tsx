import type { ComponentType } from 'react';
import type { CallDto } from '../data/types';
import { baseName } from '../ui/format';
import { AgentRenderer } from './agent';
import { arr, input, obj, type RendererProps, str, tur } from './common';
import { EditRenderer, MultiEditRenderer, NotebookEditRenderer, ReadRenderer, WriteRenderer } from './files';
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

/** One renderer per tool, keyed by canonical name (aliases already resolved by core). */
const RENDERERS: Readonly<Record<string, ComponentType<RendererProps>>> = {
  Edit: EditRenderer,
  MultiEdit: MultiEditRenderer,
  Write: WriteRenderer,
  Read: ReadRenderer,
  NotebookEdit: NotebookEditRenderer,
  Bash: BashRenderer,
  TaskOutput: ShellOutputRenderer,
  TaskStop: ShellStopRenderer,
  Grep: GrepRenderer,
  Glob: GlobRenderer,
  WebSearch: WebSearchRenderer,
  WebFetch: WebFetchRenderer,
  ToolSearch: ToolSearchRenderer,
  TodoWrite: TodoWriteRenderer,
  TaskCreate: TaskToolRenderer,
  TaskUpdate: TaskToolRenderer,
  TaskList: TaskToolRenderer,
  TaskGet: TaskToolRenderer,
  Agent: AgentRenderer,
  AskUserQuestion: AskUserQuestionRenderer,
  ExitPlanMode: ExitPlanModeRenderer,
  EnterPlanMode: EnterPlanModeRenderer,
  Skill: SkillRenderer,
  LSP: LspRenderer,
  CronCreate: CronRenderer,
  CronDelete: CronRenderer,
  CronList: CronRenderer,
  EnterWorktree: WorktreeRenderer,
  ExitWorktree: WorktreeRenderer,
};

export function rendererFor(call: CallDto): ComponentType<RendererProps> {
  if (call.canonicalName.startsWith('mcp__')) return McpRenderer;
  return RENDERERS[call.canonicalName] ?? GenericRenderer;
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
