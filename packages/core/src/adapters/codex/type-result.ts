import { isRecord, num, str } from '../../internal/guards.js';
import { parseApplyPatch } from '../../model/apply-patch.js';
import { buildTypedResult, imagesOf, toolResultOf, unknownTypedResult } from '../../model/build-typed-result.js';
import { type ImageValue, resultText } from '../../model/content.js';
import type { RawCall, RawResult } from '../../model/raw.js';
import type { ToolResult } from '../../model/tool-call.js';
import type { DataKind, TypedResult } from '../../model/typed-result.js';
import { codexFailureOf, codexShellError, codexShellExitOf, isCommandOutput, printedCommandResult } from './errors.js';
import { sandboxStreams } from './output.js';
import { patchTextOf, withAppliedHunks } from './patch.js';
import { canonicalCodexToolName, parseCodexMcpName, SHELL_TOOLS } from './tool-names.js';

/** Type one Codex tool result against its call, onto the shared kinds. Never throws. */
export function typeCodexResult(call: RawCall, raw: RawResult): ToolResult {
  const facts = isRecord(raw.toolUseResult) ? raw.toolUseResult : {};
  const text = resultText(raw.content);
  const images = imagesOf(raw.content);
  const style = str(facts.style);
  const exitCode = num(facts.exitCode);
  const shellExit = codexShellExitOf(call.name, call.input, exitCode, style);
  // A command that exited non-zero: typed as Claude Code's Bash failures are (the exit code on the error).
  if (raw.isError && shellExit?.failed === true && exitCode !== undefined) {
    // a script's (`exec`): the output of the command it printed
    const output = canonicalCodexToolName(call.name) === 'exec' ? printedCommandResult(raw.content)?.output : undefined;
    const error = codexShellError(exitCode, output ?? text, style);
    return toolResultOf(raw, { typed: { kind: 'error', tool: call.name, message: error.message }, error, images });
  }
  // Whether the call failed is the decoder's (`isError`); typing says why.
  const failure = raw.isError ? codexFailureOf(call.name, text, true, !isCommandOutput(call.name, style)) : undefined;
  if (failure !== undefined) {
    // A failed MCP call keeps its server and tool, as Claude Code's and Gemini's do (failures count by server).
    const mcp = parseCodexMcpName(canonicalCodexToolName(call.name));
    return toolResultOf(raw, {
      typed:
        mcp === undefined
          ? { kind: 'error', tool: call.name, message: failure.message }
          : {
              kind: 'mcp',
              tool: call.name,
              data: { server: mcp.server, tool: mcp.tool, text, blocks: mcpBlocks(text, images) },
            },
      error: { category: failure.category, severity: failure.severity, message: failure.message },
      images,
    });
  }
  let typed: TypedResult | undefined;
  try {
    typed = typedOf(call, text, facts, images, shellExit?.failed === false ? shellExit.interpretation : undefined);
  } catch {
    typed = undefined;
  }
  return toolResultOf(raw, {
    typed: typed ?? unknownTypedResult(call.name, raw.content, facts),
    error: undefined,
    images,
  });
}

function typedOf(
  call: RawCall,
  text: string,
  facts: Record<string, unknown>,
  images: readonly ImageValue[],
  returnCodeInterpretation: string | undefined,
): TypedResult | undefined {
  const name = canonicalCodexToolName(call.name);
  const input = isRecord(call.input) ? call.input : {};
  const patchText = patchTextOf(name, input);
  if (patchText !== undefined) {
    return as('patch', call.name, {
      // 0.169 reports what it applied in its `FileChange` item, earlier clients in `patch_apply_end`
      files: withAppliedHunks(parseApplyPatch(patchText), facts.patchApplyEnd ?? facts.item),
      output: text,
    });
  }
  if (SHELL_TOOLS.has(name)) {
    const exitCode = num(facts.exitCode);
    // a sandbox's report of the exit (clients up to 0.46) holds the command's two streams apart
    const streams = facts.style === 'sandbox-exit' ? sandboxStreams(text) : undefined;
    return as('bash', call.name, {
      stdout: streams?.stdout ?? text,
      stderr: streams?.stderr ?? '',
      exitCode,
      runningSessionId: str(facts.runningSessionId),
      interrupted: false,
      returnCodeInterpretation,
      noOutputExpected: text === '' ? true : undefined,
    });
  }
  if (name === 'update_plan') {
    const plan = Array.isArray(input.plan) ? input.plan : [];
    const todos = plan
      .filter(isRecord)
      .map((step) => ({ content: str(step.step) ?? '', status: str(step.status) ?? 'pending' }));
    return as('todo-write', call.name, { newTodos: todos });
  }
  if (name === 'view_image') {
    const image = images[0];
    return as('read', call.name, {
      variant: 'image',
      filePath: str(input.path),
      mediaType: image?.mediaType ?? 'image/*',
    });
  }
  if (name === 'web_search') {
    const query = str(input.query) ?? text;
    // Codex keeps a search's query, never its results: its output is the query again, no text of the results
    return as('web-search', call.name, { query, links: [], texts: text.trim() === query.trim() ? [] : [text] });
  }
  if (name === 'tool_search') {
    const matches = text.split('\n').filter((l) => l !== '');
    return as('tool-search', call.name, { query: str(input.query) ?? '', matches });
  }
  if (name === 'spawn_agent') {
    const spawned = isRecord(facts.collabAgentSpawnEnd) ? facts.collabAgentSpawnEnd : {};
    return as('agent', call.name, {
      status: 'spawned',
      agentId: str(spawned.new_thread_id) ?? agentIdIn(text),
      agentType: str(input.agent_type) ?? str(spawned.new_agent_role),
      prompt: str(input.message),
      text,
      resolvedModel: str(spawned.model) ?? str(input.model),
    });
  }
  if (name === 'wait_agent') return as('agent-wait', call.name, waitData(text));
  if (GOAL_TOOLS.has(name)) return as('goal', call.name, goalData(text, input));
  const mcp = parseCodexMcpName(name);
  if (mcp !== undefined) {
    const blocks = mcpBlocks(text, images);
    return as('mcp', call.name, { server: mcp.server, tool: mcp.tool, text, blocks });
  }
  return undefined;
}

const GOAL_TOOLS: ReadonlySet<string> = new Set(['create_goal', 'get_goal', 'update_goal']);

/** A goal tool's answer, `{"goal":{objective, status, tokensUsed, …}, "completionBudgetReport": …}`. */
function goalData(text: string, input: Record<string, unknown>): Record<string, unknown> {
  const parsed = parseJson(text);
  const answer = isRecord(parsed) ? parsed : {};
  const goal = isRecord(answer.goal) ? answer.goal : {};
  return {
    objective: str(goal.objective) ?? str(input.objective),
    status: str(goal.status) ?? str(input.status),
    tokensUsed: num(goal.tokensUsed),
    tokenBudget: num(goal.tokenBudget),
    timeUsedSeconds: num(goal.timeUsedSeconds),
    report: str(answer.completionBudgetReport),
  };
}

/**
 * A `wait_agent` answer: `{"status": {<thread id>: {"completed": <last message>}}, "timed_out": false}`, or
 * `{"message": "Wait timed out.", "timed_out": true}` (../shared/wild-agents). A state is an object of one key
 * (`completed`, `errored`: its text) or a word (`running`, `shutdown`, `not_found`).
 */
function waitData(text: string): Record<string, unknown> {
  const parsed = parseJson(text);
  if (!isRecord(parsed)) return { agents: [], message: text === '' ? undefined : text };
  const states = isRecord(parsed.status) ? Object.entries(parsed.status) : [];
  const agents = states.map(([agentId, state]) => {
    if (typeof state === 'string') return { agentId, status: state };
    const [status, value] = isRecord(state)
      ? (Object.entries(state)[0] ?? ['unknown', undefined])
      : ['unknown', undefined];
    return { agentId, status, text: typeof value === 'string' ? value : undefined };
  });
  const timedOut = parsed.timed_out;
  return { agents, timedOut: typeof timedOut === 'boolean' ? timedOut : undefined, message: str(parsed.message) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A typed result of one kind, validated against its schema; undefined when the data does not fit. */
function as(kind: DataKind, tool: string, data: Record<string, unknown>): TypedResult | undefined {
  return buildTypedResult(kind, tool, () => data);
}

function agentIdIn(text: string): string | undefined {
  const parsed = parseJson(text);
  return isRecord(parsed) ? (str(parsed.agent_id) ?? str(parsed.thread_id)) : undefined;
}

function mcpBlocks(text: string, images: readonly ImageValue[]) {
  return [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...images.map((image) => ({ type: 'image' as const, mediaType: image.mediaType })),
  ];
}
