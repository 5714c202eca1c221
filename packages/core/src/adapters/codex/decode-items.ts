import { isRecord, num, str } from '../../internal/guards.js';
import { capDepth } from '../../internal/json-depth.js';
import type { ContentBlock, ResultContent } from '../../model/content.js';
import { createIsoTimestamp, type IsoTimestamp } from '../../model/ids.js';
import { imageOf } from './output.js';

// What the Codex decoder knows of the rollout's vocabulary: which lines and events mean what, and the pure
// readers of an item's content, name, input and durations.

/** Facts gathered from events that share a call's `call_id` (exit code, duration, failure), for its output. */
export type CallFacts = Record<string, unknown>;

/** Event types that repeat what `response_item` lines already hold, or that are folded into a call's output. */
export const FOLDED_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'agent_reasoning_section_break',
  'item_started',
]);
/** Events whose payload belongs to the call with the same `call_id`. */
export const CALL_EVENTS = new Set([
  'exec_command_end',
  'patch_apply_end',
  'mcp_tool_call_end',
  'web_search_end',
  'view_image_tool_call',
  'collab_agent_spawn_end',
  'collab_waiting_end',
  'collab_close_end',
  'collab_agent_interaction_end',
  'dynamic_tool_call_response',
  'image_generation_end',
]);
/** Top-level line types that are bookkeeping: kept as meta records. */
export const META_LINES = new Set(['world_state', 'inter_agent_communication_metadata']);
export const CALL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'tool_search_call',
  'web_search_call',
  'image_generation_call',
]);
export const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'tool_search_output',
  'local_shell_call_output',
]);
export const SPAWN_NOTICE = 'You are the newly spawned agent';
/** A forked child's copied history is re-stamped at the fork: a line this much later is the child's own. */
export const FORK_COPY_WINDOW_MS = 5_000;
/** A resumed session's copied history is written at one instant (within a few milliseconds). */
export const RESUME_COPY_WINDOW_MS = 1_000;

export function stamp(value: unknown): IsoTimestamp | undefined {
  return typeof value === 'string' && value !== '' ? createIsoTimestamp(value) : undefined;
}

export function messageBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (content === undefined || content === null) return [];
  // Content that is one part, or parts that are no objects, is kept: a text as text, anything else raw.
  const blocks: ContentBlock[] = [];
  for (const part of Array.isArray(content) ? content : [content]) {
    if (typeof part === 'string') {
      blocks.push({ kind: 'text', text: part });
      continue;
    }
    if (!isRecord(part)) {
      blocks.push({ kind: 'unknown', type: part === null ? 'null' : typeof part, raw: part });
      continue;
    }
    const type = str(part.type) ?? 'unknown';
    if (typeof part.text === 'string') blocks.push({ kind: 'text', text: part.text });
    else if (type === 'input_image') blocks.push(imageOf(part.image_url) ?? { kind: 'unknown', type, raw: part });
    else blocks.push({ kind: 'unknown', type, raw: part });
  }
  return blocks;
}

export function textOf(content: readonly unknown[]): string {
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** Reasoning: summary texts, or plain `reasoning_text` of open-weight models; an encrypted blob alone is redacted. */
export function reasoningBlocks(item: Record<string, unknown>): ContentBlock[] {
  const summary = Array.isArray(item.summary) ? textOf(item.summary) : '';
  const content = Array.isArray(item.content) ? textOf(item.content) : '';
  const text = [summary, content].filter((t) => t !== '').join('\n\n');
  if (text !== '') return [{ kind: 'thinking', thinking: text }];
  const encrypted = str(item.encrypted_content);
  return [{ kind: 'redacted-thinking', data: encrypted ?? '' }];
}

/**
 * The tool's name: namespaced tools (0.169 MCP) become `mcp__server__tool`; nameless items their type. An app's tool
 * of the `codex_apps` server comes as namespace `mcp__codex_apps__github`, name `_fetch_pr`: Codex's name for it is
 * the two joined as they are, `mcp__codex_apps__github_fetch_pr` (tool `github_fetch_pr`), not `…github___fetch_pr`.
 */
export function toolNameOf(type: string, item: Record<string, unknown>): string {
  const name = str(item.name);
  const namespace = str(item.namespace);
  if (name !== undefined && namespace !== undefined) {
    return name.startsWith('_') || namespace.endsWith('_') ? `${namespace}${name}` : `${namespace}__${name}`;
  }
  if (name !== undefined && name !== '') return name;
  if (type === 'local_shell_call') return 'local_shell';
  if (type === 'tool_search_call') return 'tool_search';
  if (type === 'web_search_call') return 'web_search';
  if (type === 'image_generation_call') return 'image_generation';
  return type;
}

/** A call's input: `arguments` parsed from its JSON string (kept as text when it does not parse), or the raw input. */
export function inputOf(type: string, item: Record<string, unknown>): unknown {
  if (type === 'custom_tool_call') return { input: str(item.input) ?? '' };
  if (type === 'local_shell_call' || type === 'web_search_call') return isRecord(item.action) ? item.action : {};
  if (type === 'image_generation_call') return { prompt: str(item.revised_prompt) ?? '' };
  const args = item.arguments;
  if (typeof args !== 'string') return isRecord(args) ? args : {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? capDepth(parsed).value : { arguments: args };
  } catch {
    return { arguments: args, invalidJson: true };
  }
}

/**
 * The outcome a web search or an image generation item carries (no output line answers it): its query or revised
 * prompt, the image made, and whether it failed; undefined for any other item.
 */
export function ownOutcome(
  type: string,
  item: Record<string, unknown>,
): { readonly content: ResultContent; readonly failed: boolean } | undefined {
  if (type !== 'web_search_call' && type !== 'image_generation_call') return undefined;
  const action = isRecord(item.action) ? item.action : {};
  const text = str(action.query) ?? str(item.revised_prompt) ?? str(item.status) ?? '';
  const image =
    type === 'image_generation_call' ? imageOf(`data:image/png;base64,${str(item.result) ?? ''}`) : undefined;
  const content = image !== undefined && str(item.result) ? [{ kind: 'text' as const, text }, image] : text;
  return { content, failed: str(item.status) === 'failed' };
}

export function toolSearchText(item: Record<string, unknown>): string {
  const tools = Array.isArray(item.tools) ? item.tools : [];
  const names: string[] = [];
  for (const tool of tools) {
    if (!isRecord(tool)) continue;
    const inner = Array.isArray(tool.tools) ? tool.tools : [];
    if (inner.length === 0 && typeof tool.name === 'string') names.push(tool.name);
    for (const t of inner)
      if (isRecord(t) && typeof t.name === 'string') names.push(`${str(tool.name) ?? ''}__${t.name}`);
  }
  return names.join('\n');
}

export function eventKey(type: string): string {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** `{secs, nanos}`, a number of seconds, or a "1.2s" string, in milliseconds. */
export function durationMsOf(value: unknown): number | undefined {
  if (isRecord(value)) {
    const secs = num(value.secs);
    if (secs === undefined) return undefined;
    return secs * 1000 + (num(value.nanos) ?? 0) / 1e6;
  }
  const n = num(value);
  if (n !== undefined) return n * 1000;
  return undefined;
}

/** A call's facts with an event of it added (`CALL_EVENTS`): exit code, spawned agent, duration, failure. */
export function withEventFacts(
  previous: CallFacts | undefined,
  type: string,
  payload: Record<string, unknown>,
): CallFacts {
  const facts: CallFacts = { ...(previous ?? {}), [eventKey(type)]: payload };
  const exit = num(payload.exit_code);
  if (exit !== undefined) facts.exitCode = exit;
  // The agent a `spawn_agent` call started: its rollout is a subagent file of this session.
  const spawned = str(payload.new_thread_id);
  if (type === 'collab_agent_spawn_end' && spawned !== undefined) facts.agentId = spawned;
  const duration = durationMsOf(payload.duration);
  if (duration !== undefined) facts.durationMs = duration;
  if (type === 'patch_apply_end' && payload.success === false) facts.failed = true;
  if (type === 'mcp_tool_call_end' && isRecord(payload.result) && 'Err' in payload.result) facts.failed = true;
  return facts;
}

/**
 * 0.169 `item_completed`: an MCP call's `status: "failed"` is the only place its failure is written; a patch's
 * (`FileChange`) holds what it applied, each file's unified diff and a deleted file's lines, where earlier clients
 * wrote `patch_apply_end` (0.169 writes none).
 */
export function completedItemFacts(
  payload: Record<string, unknown>,
  factsOf: (id: string) => CallFacts | undefined,
): { readonly id: string; readonly facts: CallFacts } | undefined {
  const item = isRecord(payload.item) ? payload.item : {};
  const id = str(item.id);
  const type = str(item.type);
  if (id === undefined || (type !== 'McpToolCall' && type !== 'FileChange')) return undefined;
  const facts: CallFacts = { ...(factsOf(id) ?? {}), item };
  if (str(item.status) === 'failed') facts.failed = true;
  const duration = durationMsOf(item.duration) ?? num(item.duration_ms);
  if (duration !== undefined) facts.durationMs = duration;
  return { id, facts };
}
