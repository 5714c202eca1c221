import { isRecord, str } from '../../../internal/guards.js';
import { mcpServerOfDisplayName } from '../tool-names.js';
import type { GeminiResultContext } from './context.js';

/** `write_todos` → `todo-write`: the list as written (`description` + `status` per item). */
export function todoData(ctx: GeminiResultContext): unknown {
  const todos = Array.isArray(ctx.args.todos) ? ctx.args.todos : [];
  return {
    newTodos: todos.filter(isRecord).map((t) => ({
      content: str(t.description) ?? str(t.content) ?? '',
      status: str(t.status) ?? '',
    })),
  };
}

/**
 * A subagent call (`invoke_agent` in 0.61, `codebase_investigator` in 0.20) → `agent`. The client reports
 * `Subagent '<name>' finished.\nTermination Reason: <R>\nResult:\n<text>`; GOAL means it completed.
 */
export function agentData(ctx: GeminiResultContext): unknown {
  const reason = /Termination Reason:\s*(\S+)/.exec(ctx.text)?.[1];
  const resultAt = ctx.text.indexOf('Result:\n');
  const display = isRecord(ctx.display) ? ctx.display : {};
  return {
    status: reason === undefined || reason === 'GOAL' ? 'completed' : reason.toLowerCase(),
    agentId: ctx.agentId,
    agentType: str(ctx.args.agent_name) ?? str(display.agentName) ?? ctx.tool,
    prompt: str(ctx.args.prompt) ?? str(ctx.args.objective),
    text: resultAt >= 0 ? submittedText(ctx.text.slice(resultAt + 8)) : ctx.text,
  };
}

/**
 * A subagent's result as the client wrote it after `Result:`: the JSON of what it submitted through complete_task,
 * read as {@link taskCompleteData} reads the submission (its `response` when it has one), else as written.
 */
function submittedText(written: string): string {
  const submitted = parseJson(written);
  return (isRecord(submitted) ? str(submitted.response) : undefined) ?? written;
}

/** An MCP tool (`mcp_<server>_<tool>` in 0.61; a bare name shown as `<tool> (<server> MCP Server)` in 0.20). */
export function mcpData(ctx: GeminiResultContext): unknown {
  const fromDisplay = mcpServerOfDisplayName(ctx.displayName);
  let server = fromDisplay ?? '';
  let tool = ctx.tool;
  if (fromDisplay !== undefined) {
    tool =
      (ctx.displayName ?? '').replace(/\s*\(\S+ MCP Server\)\s*$/, '') || ctx.tool.replace(`mcp_${fromDisplay}_`, '');
  } else if (ctx.tool.startsWith('mcp_')) {
    const rest = ctx.tool.slice(4);
    const sep = rest.indexOf('_');
    server = sep > 0 ? rest.slice(0, sep) : rest;
    tool = sep > 0 ? rest.slice(sep + 1) : '';
  }
  const text = ctx.text
    .replace(/\n?\[Tool '[^']*' provided the following image data with mime-type: [^\]]*\]/g, '')
    .trim();
  return {
    server,
    tool,
    text,
    blocks: [
      ...(text === '' ? [] : [{ type: 'text' as const, text }]),
      ...ctx.images.map((image) => ({ type: 'image' as const, mediaType: image.mediaType })),
    ],
  };
}

/** `save_memory` → `memory`: the fact, and whether the client said it was saved (0.20 answers `{success, message}`). */
export function memoryData(ctx: GeminiResultContext): unknown {
  const answer = parseJson(ctx.text);
  const message = isRecord(answer) ? str(answer.message) : ctx.text.trim() || undefined;
  return { fact: str(ctx.args.fact) ?? '', saved: !isRecord(answer) || answer.success !== false, message };
}

/** `update_topic` → `topic`: the title, summary and intent the model set. */
export function topicData(ctx: GeminiResultContext): unknown {
  return {
    title: str(ctx.args.title) ?? /Current topic: "([^"]*)"/.exec(ctx.text)?.[1] ?? '',
    summary: str(ctx.args.summary),
    strategicIntent: str(ctx.args.strategic_intent),
  };
}

/** `list_background_processes` → `process-list`: one ``- [PID 123] RUNNING: `cmd` `` line per process. */
export function processListData(ctx: GeminiResultContext): unknown {
  const processes = [];
  for (const line of ctx.text.split('\n')) {
    const m = /^\s*-?\s*\[PID (\d+)\]\s*([A-Za-z_ ]+):\s*(.*)$/.exec(line);
    if (m === null) continue;
    const command = (m[3] ?? '').trim().replace(/^`(.*)`$/, '$1');
    processes.push({ pid: Number(m[1]), status: (m[2] ?? '').trim().toLowerCase(), command });
  }
  return { processes };
}

/** `complete_task` → `task-complete`: the result the subagent submitted (its `response`, else the whole value). */
export function taskCompleteData(ctx: GeminiResultContext): unknown {
  const submitted = ctx.args.result;
  const response = isRecord(submitted) ? str(submitted.response) : undefined;
  const result = response ?? str(submitted) ?? (submitted === undefined ? '' : JSON.stringify(submitted, null, 2));
  return { result, message: ctx.text.trim() || undefined };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
