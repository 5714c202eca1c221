/**
 * What a telemetry record says in neutral terms, whichever agent exported it: the session it belongs to, and for the
 * events the index joins and sums, one of four neutral names with the client's own measurements. Claude Code's event
 * names and attributes are the neutral ones; Codex CLI's and Gemini CLI's are mapped by the table below (their
 * names, their attribute keys), so stores and queries never ask which agent sent a record.
 *
 * - Codex CLI: `conversation.id` = the rollout's session id; `codex.tool_result.call_id` = a call's `call_id`;
 *   `codex.api_request` carries the request's duration but no response id (a request joins its session only), and
 *   its tokens come in the `response.completed` `codex.sse_event` (neutral name `api_usage`).
 * - Gemini CLI: `session.id` = the chat's `sessionId`; `gemini_cli.api_response` is one API call (no response id);
 *   its `gemini_cli.tool_call` event names no call, the `tool_call` span (OpenTelemetry GenAI conventions) does:
 *   `gen_ai.tool.call_id` = the chat's tool call id, and the span's start and end are the call's execution.
 */
import {
  attrBool,
  attrDuration,
  attrNumber,
  attrText,
  type OtelAttributes,
  type OtelEvent,
  type OtelSpan,
} from './types.js';

/** One record's neutral facts: what the index stores in its columns beside the record itself. */
export interface TelemetryFacts {
  readonly sessionId: string;
  /** `user_prompt`, `api_request`, `api_usage`, `api_error`, `tool_result`, or else the record's own name. */
  readonly name: string;
  readonly promptId: string;
  readonly requestId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly model: string;
  readonly durationMs: number | null;
  readonly ttftMs: number | null;
  readonly success: boolean | null;
  readonly costUsd: number | null;
  /** Input tokens not read from a cache (as Claude Code counts them). */
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly cacheReadTokens: number | null;
  readonly cacheCreationTokens: number | null;
}

/** The agents whose exports AgentDash reads, by the `service.name` of their resource. */
const clientNames: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  codex_exec: 'Codex CLI',
  codex_cli_rs: 'Codex CLI',
  'codex-tui': 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
};

/** The agent an export's `service.name` names (`codex_exec` → Codex CLI); another name as it is, '' as 'unknown'. */
export function telemetryClientName(serviceName: string): string {
  return clientNames[serviceName] ?? (serviceName === '' ? 'unknown' : serviceName);
}

/** The session a record's attributes name: Claude Code and Gemini CLI `session.id`, Codex CLI `conversation.id`. */
export function telemetrySessionId(attributes: OtelAttributes): string {
  return (
    attrText(attributes, 'session.id') ||
    attrText(attributes, 'conversation.id') ||
    attrText(attributes, 'gen_ai.conversation.id')
  );
}

function minus(a: number | null, b: number | null): number | null {
  return a === null ? null : a - (b ?? 0);
}

function plus(a: number | null, b: number | null): number | null {
  return a === null ? b : a + (b ?? 0);
}

const none = {
  promptId: '',
  requestId: '',
  toolUseId: '',
  toolName: '',
  model: '',
  durationMs: null,
  ttftMs: null,
  success: null,
  costUsd: null,
  inputTokens: null,
  outputTokens: null,
  cacheReadTokens: null,
  cacheCreationTokens: null,
} as const;

type Mapped = Omit<TelemetryFacts, 'sessionId'>;
type Mapping = (a: OtelAttributes, event: OtelEvent) => Mapped;

/**
 * The tool a Claude Code event names, as its transcript names it: an MCP tool is `tool_name: "mcp_tool"` with
 * `tool_parameters: {"mcp_server_name", "mcp_tool_name"}`, which is `mcp__<server>__<tool>` in the transcript (each
 * part with what is not a letter, digit, `_` or `-` as `_`, as the client names MCP tools).
 */
function claudeToolName(a: OtelAttributes): string {
  const name = attrText(a, 'tool_name');
  if (name !== 'mcp_tool') return name;
  let parameters: unknown;
  try {
    parameters = JSON.parse(attrText(a, 'tool_parameters'));
  } catch {
    return name;
  }
  if (typeof parameters !== 'object' || parameters === null) return name;
  const { mcp_server_name: server, mcp_tool_name: tool } = parameters as Record<string, unknown>;
  if (typeof server !== 'string' || typeof tool !== 'string' || server === '' || tool === '') return name;
  const part = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `mcp__${part(server)}__${part(tool)}`;
}

/** Claude Code: names and attributes as they are (the neutral vocabulary was taken from it). */
const claudeCode: Mapping = (a, event) => ({
  name: event.name,
  promptId: attrText(a, 'prompt.id'),
  requestId: attrText(a, 'request_id'),
  toolUseId: attrText(a, 'tool_use_id'),
  toolName: claudeToolName(a),
  model: attrText(a, 'model'),
  durationMs: attrDuration(a, 'duration_ms'),
  ttftMs: attrNumber(a, 'ttft_ms'),
  success: attrBool(a, 'success'),
  costUsd: attrNumber(a, 'cost_usd'),
  inputTokens: attrNumber(a, 'input_tokens'),
  outputTokens: attrNumber(a, 'output_tokens'),
  cacheReadTokens: attrNumber(a, 'cache_read_tokens'),
  cacheCreationTokens: attrNumber(a, 'cache_creation_tokens'),
});

/** Other agents' events the index joins or sums, by event name. */
const mappings: Readonly<Record<string, Mapping>> = {
  'codex.user_prompt': (_a, event) => ({ ...none, name: 'user_prompt', promptId: event.timeUnixNano }),
  'codex.api_request': (a) => {
    const status = attrNumber(a, 'http.response.status_code');
    return {
      ...none,
      name: status !== null && status >= 400 ? 'api_error' : 'api_request',
      model: attrText(a, 'model'),
      durationMs: attrDuration(a, 'duration_ms'),
    };
  },
  'codex.sse_event': (a, event) => {
    const input = attrNumber(a, 'input_token_count');
    if (attrText(a, 'event.kind') !== 'response.completed' || input === null) return { ...none, name: event.name };
    const cached = attrNumber(a, 'cached_token_count');
    return {
      ...none,
      name: 'api_usage',
      model: attrText(a, 'model'),
      inputTokens: minus(input, cached),
      outputTokens: attrNumber(a, 'output_token_count'),
      cacheReadTokens: cached,
      cacheCreationTokens: attrNumber(a, 'cache_write_token_count'),
    };
  },
  'codex.tool_result': (a) => ({
    ...none,
    name: 'tool_result',
    toolUseId: attrText(a, 'call_id'),
    toolName: attrText(a, 'tool_name'),
    model: attrText(a, 'model'),
    durationMs: attrDuration(a, 'duration_ms'),
    success: attrBool(a, 'success'),
  }),
  'gemini_cli.user_prompt': (a) => ({ ...none, name: 'user_prompt', promptId: attrText(a, 'prompt_id') }),
  'gemini_cli.api_response': (a) => {
    const cached = attrNumber(a, 'cached_content_token_count');
    return {
      ...none,
      name: 'api_request',
      promptId: attrText(a, 'prompt_id'),
      model: attrText(a, 'model'),
      durationMs: attrDuration(a, 'duration_ms'),
      inputTokens: minus(attrNumber(a, 'input_token_count'), cached),
      // Thoughts are billed as output, as Claude Code's output tokens include thinking.
      outputTokens: plus(attrNumber(a, 'output_token_count'), attrNumber(a, 'thoughts_token_count')),
      cacheReadTokens: cached,
    };
  },
  'gemini_cli.api_error': (a) => ({
    ...none,
    name: 'api_error',
    promptId: attrText(a, 'prompt_id'),
    model: attrText(a, 'model') || attrText(a, 'model_name'),
    durationMs: attrDuration(a, 'duration_ms') ?? attrDuration(a, 'duration'),
  }),
};

/** The neutral facts of one event (an event no mapping names keeps its own name, and facts only if Claude Code's). */
export function eventFacts(event: OtelEvent): TelemetryFacts {
  const a = event.attributes;
  const mapping = mappings[event.name];
  const facts = mapping !== undefined ? mapping(a, event) : claudeCode(a, event);
  return { sessionId: telemetrySessionId(a), ...facts };
}

/** The join keys of a span: its session, the response it timed, the call it ran. */
export interface SpanFacts {
  readonly sessionId: string;
  readonly requestId: string;
  readonly toolUseId: string;
}

export function spanFacts(span: OtelSpan): SpanFacts {
  const a = span.attributes;
  return {
    sessionId: telemetrySessionId(a),
    requestId: attrText(a, 'gen_ai.response.id') || attrText(a, 'request_id'),
    toolUseId: attrText(a, 'gen_ai.tool.call_id') || attrText(a, 'tool_use_id'),
  };
}

/**
 * A span that is the client's only record of a tool call's execution, as a `tool_result` fact: a GenAI `tool_call`
 * span (Gemini CLI) with its call id, lasting from start to end; its outcome unknown unless the status is an error
 * (the `gemini_cli.tool_call` event that says it names no call). Undefined for
 * any other span (Claude Code's tool spans sit beside its `tool_result` events and are not counted twice).
 */
export function spanToolResult(span: OtelSpan): TelemetryFacts | undefined {
  const a = span.attributes;
  const callId = attrText(a, 'gen_ai.tool.call_id');
  if (attrText(a, 'gen_ai.operation.name') !== 'tool_call' || callId === '') return undefined;
  return {
    ...none,
    sessionId: telemetrySessionId(a),
    name: 'tool_result',
    toolUseId: callId,
    toolName: attrText(a, 'gen_ai.tool.name'),
    durationMs: span.durationMs,
    // Gemini CLI 0.61 sets no error status on a failed call's span: only an error status says anything.
    success: span.statusCode === 2 ? false : null,
  };
}
