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
    text: resultAt >= 0 ? ctx.text.slice(resultAt + 8) : ctx.text,
  };
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
