import { stripUndefined } from '../model/build-typed-result.js';
import { type ResultContent, resultText } from '../model/content.js';
import type { ToolCall } from '../model/tool-call.js';
import { exitOutput } from '../model/tool-error.js';
import type { TypedResult } from '../model/typed-result.js';

/** Envelope `data`: always a human-readable `output`, plus per-tool fields (docs/envelope.md). */
export interface EnvelopeData {
  readonly tool: string;
  readonly kind: TypedResult['kind'];
  readonly output: string;
  readonly [field: string]: unknown;
}

/**
 * Seed 004: `{success:true, data}` when the tool ran (a Bash exit with a known non-zero code included), else
 * `{success:false, error}`.
 */
export type ToolEnvelope =
  | { readonly success: true; readonly data: EnvelopeData }
  | { readonly success: false; readonly error: string };

/** The call's result in the seed 004 envelope. Calls without a result are `success:false`. */
export function toEnvelope(call: ToolCall): ToolEnvelope {
  const result = call.result;
  if (result === undefined) {
    return {
      success: false,
      error:
        call.status === 'pending'
          ? 'No result yet: the call is still running'
          : 'No result: the call was never answered',
    };
  }
  const error = result.error;
  if (error !== undefined) {
    // A command that ran and exited with a known non-zero code: the tool worked, the code is the command's result.
    // Without the code (1.0.128 prints only the output) `exit_code: null` would read as a success: a failure.
    if (error.category === 'exit-code' && error.exitCode !== undefined) {
      return {
        success: true,
        data: {
          tool: call.name,
          kind: 'bash',
          output: exitOutput(error.message),
          exit_code: error.exitCode,
        },
      };
    }
    return { success: false, error: error.message === '' ? `${call.name} failed` : error.message };
  }
  const data = stripUndefined({ tool: call.name, kind: result.typed.kind, ...dataOf(result.typed, result.content) });
  return { success: true, data };
}

const lines = (items: readonly string[]) => items.join('\n');
/** The sum, or undefined when any part is unknown. */
const sumOf = (parts: readonly (number | undefined)[]) =>
  parts.some((n) => n === undefined) ? undefined : parts.reduce<number>((sum, n) => sum + (n ?? 0), 0);

/** `output` and the per-kind fields. Field names are snake_case, like seed 004. */
function dataOf(typed: TypedResult, content: ResultContent): { output: string; [field: string]: unknown } {
  switch (typed.kind) {
    case 'bash': {
      const d = typed.data;
      // an image the command printed (`isImage`: a data URL) is named, as a Read of an image is, not its base64
      const image = d.isImage === true ? /^data:([\w/+.-]+);base64,/.exec(d.stdout.trimStart())?.[1] : undefined;
      const stdout = image !== undefined ? `[image ${image}]` : d.stdout;
      const output = [stdout, d.stderr].filter((s) => s !== '').join('\n');
      return {
        output,
        exit_code: d.exitCode ?? null,
        interrupted: d.interrupted,
        background_task_id: d.backgroundTaskId,
        running_session_id: d.runningSessionId,
        persisted_output_path: d.persistedOutputPath,
      };
    }
    case 'task-output': {
      const d = typed.data;
      return {
        output: d.output ?? [d.stdout ?? '', d.stderr ?? ''].filter((s) => s !== '').join('\n'),
        task_id: d.taskId,
        status: d.status,
        exit_code: d.exitCode ?? null,
      };
    }
    case 'task-stop':
      return { output: typed.data.message, task_id: typed.data.taskId };
    case 'read': {
      const d = typed.data;
      switch (d.variant) {
        case 'text':
          return {
            output: d.content,
            file_path: d.filePath,
            variant: d.variant,
            start_line: d.startLine,
            num_lines: d.numLines,
            total_lines: d.totalLines,
          };
        case 'image':
          return {
            output: `[image ${d.mediaType}]`,
            file_path: d.filePath,
            variant: d.variant,
            media_type: d.mediaType,
          };
        case 'notebook':
          return {
            output: lines(d.cells.map((c) => c.source)),
            file_path: d.filePath,
            variant: d.variant,
            count: d.cells.length,
          };
        case 'pdf':
        case 'parts':
        case 'file_unchanged':
          return { output: resultText(content), file_path: d.filePath, variant: d.variant };
        default:
          return d satisfies never;
      }
    }
    case 'write': {
      const d = typed.data;
      return {
        output: `${d.operation === 'create' ? 'Created' : 'Updated'} ${d.filePath}`,
        file_path: d.filePath,
        operation: d.operation,
        bytes: d.content === undefined ? undefined : new TextEncoder().encode(d.content).length,
        lines_added: d.linesAdded,
        lines_removed: d.linesRemoved,
      };
    }
    case 'edit':
      return {
        output: `${typed.data.operation === 'create' ? 'Created' : 'Edited'} ${typed.data.filePath}`,
        file_path: typed.data.filePath,
        operation: typed.data.operation,
        lines_added: typed.data.linesAdded,
        lines_removed: typed.data.linesRemoved,
      };
    case 'multi-edit': {
      const d = typed.data;
      return {
        output: `Edited ${d.filePath}`,
        file_path: d.filePath,
        lines_added: d.linesAdded,
        lines_removed: d.linesRemoved,
      };
    }
    case 'patch': {
      const d = typed.data;
      return {
        output:
          d.output ?? lines(d.files.map((f) => `${f.operation} ${f.path}${f.movePath ? ` → ${f.movePath}` : ''}`)),
        files: d.files.map((f) => f.path),
        lines_added: sumOf(d.files.map((f) => f.linesAdded)),
        lines_removed: sumOf(d.files.map((f) => f.linesRemoved)),
      };
    }
    case 'notebook-edit': {
      const d = typed.data;
      return { output: resultText(content), notebook_path: d.notebookPath, cell_id: d.cellId, edit_mode: d.editMode };
    }
    case 'glob':
      return { output: lines(typed.data.filenames), count: typed.data.numFiles };
    case 'grep': {
      const d = typed.data;
      return {
        output: d.content ?? lines(d.filenames),
        count: d.numMatches ?? d.numLines ?? d.numFiles,
        mode: d.mode,
      };
    }
    case 'ls':
      return { output: typed.data.listing };
    case 'todo-write':
      return {
        output: lines(typed.data.newTodos.map((t) => `[${t.status}] ${t.content}`)),
        count: typed.data.newTodos.length,
      };
    case 'agent': {
      const d = typed.data;
      return { output: d.text, status: d.status, agent_id: d.agentId, total_tokens: d.totalTokens };
    }
    case 'web-fetch':
      return { output: typed.data.result, url: typed.data.url, status_code: typed.data.code };
    case 'web-search': {
      const d = typed.data;
      return {
        output: lines([...d.texts, ...d.links.map((l) => `${l.title} <${l.url}>`)]),
        query: d.query,
        links: d.links,
        count: d.links.length,
      };
    }
    case 'ask-user-question':
      return {
        output: lines(Object.entries(typed.data.answers).map(([q, a]) => `${q} = ${a}`)),
        answers: typed.data.answers,
      };
    case 'exit-plan-mode':
      return { output: typed.data.plan ?? '', approved: typed.data.approved, file_path: typed.data.filePath };
    case 'enter-plan-mode':
      return { output: typed.data.message };
    case 'skill':
      return { output: typed.data.result ?? resultText(content), name: typed.data.commandName };
    case 'lsp':
      return { output: typed.data.result, operation: typed.data.operation, file_path: typed.data.filePath };
    case 'list-mcp-resources':
      return { output: lines(typed.data.resources.map((r) => r.uri)), count: typed.data.resources.length };
    case 'read-mcp-resource':
      return {
        output: lines(typed.data.contents.map((c) => c.text ?? '')),
        count: typed.data.contents.length,
        error: typed.data.error,
      };
    case 'read-mcp-resource-dir':
      return { output: lines(typed.data.resources.map((r) => r.uri)), count: typed.data.resources.length };
    case 'cron-create':
      return { output: resultText(content), id: typed.data.id, schedule: typed.data.humanSchedule };
    case 'cron-delete':
      return { output: resultText(content), id: typed.data.id };
    case 'cron-list':
      return { output: resultText(content), count: typed.data.jobs.length };
    case 'task-create':
      return { output: resultText(content), task_id: typed.data.taskId };
    case 'task-get':
      return { output: resultText(content), task_id: typed.data.task?.id ?? null };
    case 'task-update':
      return { output: resultText(content), task_id: typed.data.taskId, updated: typed.data.success };
    case 'task-list':
      return { output: resultText(content), count: typed.data.tasks.length };
    case 'enter-worktree':
      return { output: typed.data.message, worktree_path: typed.data.worktreePath };
    case 'exit-worktree':
      return { output: typed.data.message, action: typed.data.action };
    case 'monitor':
      return { output: resultText(content), task_id: typed.data.taskId };
    case 'workflow':
      return { output: resultText(content), status: typed.data.status, task_id: typed.data.taskId };
    case 'send-message':
      return { output: typed.data.message, sent: typed.data.success };
    case 'tool-search':
      return { output: lines(typed.data.matches), count: typed.data.matches.length };
    case 'list-agents':
      return { output: typed.data.listing };
    case 'report-findings':
      return { output: resultText(content), count: typed.data.count };
    case 'schedule-wakeup':
      return { output: resultText(content), scheduled_for: typed.data.scheduledFor, stopped: typed.data.stopped };
    case 'mcp':
      return {
        output: typed.data.text,
        server: typed.data.server,
        mcp_tool: typed.data.tool,
        images: typed.data.blocks.filter((b) => b.type === 'image').length,
      };
    case 'goal':
      return { output: resultText(content), objective: typed.data.objective, status: typed.data.status };
    case 'memory':
      return { output: resultText(content), fact: typed.data.fact };
    case 'topic':
      return { output: resultText(content), title: typed.data.title };
    case 'process-list':
      return { output: resultText(content), count: typed.data.processes.length };
    case 'task-complete':
      return { output: typed.data.result };
    case 'agent-wait':
      return { output: resultText(content), agents: typed.data.agents.length, timed_out: typed.data.timedOut };
    case 'error':
      return { output: typed.message };
    case 'unknown':
      return { output: resultText(content), tool_use_result: typed.toolUseResult };
    default:
      return typed satisfies never;
  }
}
