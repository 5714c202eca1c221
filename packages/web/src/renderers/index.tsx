import type { ComponentType } from 'react';
import type { CallDto } from '../data/types';
import { callDetail } from '../ui/format';
import { AgentRenderer } from './agent';
import type { RendererProps } from './common';
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
