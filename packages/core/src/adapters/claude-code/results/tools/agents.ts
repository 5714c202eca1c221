/** Parsers of the agent tools: Agent (Task), SendMessage, ListAgents, Workflow. */
import { bool, isRecord, num, str } from '../../../../internal/guards.js';
import { tryJson } from '../text.js';
import { type DataParser, rec } from './shared.js';

/** Harness notes the client puts around a subagent's report (2.1.x), not part of the report. */
const HARNESS_NOTE = /^\s*<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>\s*$/;

function blocksText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter(isRecord)
    .map((b) => (b.type === 'text' ? (str(b.text) ?? '') : ''))
    .filter((t) => t !== '' && !HARNESS_NOTE.test(t))
    .join('\n');
}

/** The 2.1.x trailer of a completed agent's text: `agentId: X (…)` and `<usage>total_tokens: N …</usage>`. */
function agentTrailer(text: string): { text: string; agentId?: string; totals: Record<string, number> } {
  const totals: Record<string, number> = {};
  const usage = /\n*<usage>([\s\S]*?)<\/usage>\s*$/.exec(text);
  let body = text;
  if (usage) {
    for (const m of (usage[1] ?? '').matchAll(/(\w+): (\d+)/g)) totals[m[1] ?? ''] = Number(m[2]);
    body = body.slice(0, usage.index);
  }
  const id = /\n*agentId: ([\w-]+)(?: \([^\n]*\))?(?:\n[^\n]*)*$/.exec(body);
  if (id && usage) body = body.slice(0, id.index);
  return { text: body, agentId: id?.[1], totals };
}

/** 2.1.x `toolStats` under the shared names: `{readCount, searchCount, bashCount, editFileCount, …}`. */
function toolStatsOf(stats: Record<string, unknown> | undefined) {
  if (stats === undefined) return undefined;
  return {
    reads: num(stats.readCount),
    searches: num(stats.searchCount),
    commands: num(stats.bashCount),
    fileEdits: num(stats.editFileCount),
    others: num(stats.otherToolCount),
    linesAdded: num(stats.linesAdded),
    linesRemoved: num(stats.linesRemoved),
  };
}

export const agent: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const status = str(tur.status) ?? (Array.isArray(tur.content) ? 'completed' : undefined);
    if (status === undefined) return undefined;
    const usage = rec(tur.usage);
    return {
      status,
      agentId: str(tur.agentId) ?? str(tur.taskId) ?? str(tur.teammate_id),
      agentType: str(tur.agentType),
      description: str(tur.description) ?? str(ctx.input.description),
      prompt: str(tur.prompt) ?? str(ctx.input.prompt),
      text: blocksText(tur.content) ?? str(tur.message) ?? ctx.text,
      totalTokens: num(tur.totalTokens),
      totalToolUseCount: num(tur.totalToolUseCount),
      totalDurationMs: num(tur.totalDurationMs),
      toolsUsed: Array.isArray(tur.toolsUsed)
        ? tur.toolsUsed.filter((name): name is string => typeof name === 'string')
        : undefined,
      toolStats: toolStatsOf(rec(tur.toolStats)),
      outputFile: str(tur.outputFile),
      resolvedModel: str(tur.resolvedModel),
      usage: usage && {
        inputTokens: num(usage.input_tokens),
        outputTokens: num(usage.output_tokens),
        cacheCreationInputTokens: num(usage.cache_creation_input_tokens),
        cacheReadInputTokens: num(usage.cache_read_input_tokens),
      },
    };
  }
  const launched = /^Async agent launched successfully/.test(ctx.text);
  const trailer = launched ? undefined : agentTrailer(ctx.text);
  return {
    status: launched ? 'async_launched' : 'completed',
    agentId: trailer?.agentId ?? /agentId: ([\w-]+)/.exec(ctx.text)?.[1],
    agentType: str(ctx.input.subagent_type),
    description: str(ctx.input.description),
    prompt: str(ctx.input.prompt),
    text: trailer?.text ?? ctx.text,
    totalTokens: trailer?.totals.total_tokens,
    totalToolUseCount: trailer?.totals.tool_uses,
    totalDurationMs: trailer?.totals.duration_ms,
  };
};

export const sendMessage: DataParser = (ctx) => {
  const tur = rec(ctx.structured) ?? rec(tryJson(ctx.text));
  if (!tur) return undefined;
  const success = bool(tur.success);
  const message = str(tur.message);
  if (success === undefined || message === undefined) return undefined;
  return { success, message, display: str(tur.display) };
};

export const listAgents: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const listing = str(tur.listing);
    if (listing === undefined) return undefined;
    return {
      listing,
      sections: Array.isArray(tur.sections) ? tur.sections : undefined,
      notes: Array.isArray(tur.notes) ? tur.notes : undefined,
    };
  }
  return { listing: ctx.text };
};

export const workflow: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (!tur) return undefined;
  const status = str(tur.status);
  if (status === undefined) return undefined;
  return {
    status,
    taskId: str(tur.taskId),
    taskType: str(tur.taskType),
    workflowName: str(tur.workflowName),
    runId: str(tur.runId),
    summary: str(tur.summary),
    transcriptDir: str(tur.transcriptDir),
    scriptPath: str(tur.scriptPath),
    sessionUrl: str(tur.sessionUrl),
    warning: str(tur.warning),
    error: str(tur.error),
  };
};
