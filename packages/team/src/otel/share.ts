/**
 * Telemetry a device sends straight to the team server (`OTEL_EXPORTER_OTLP_ENDPOINT` pointed at it), cut to the
 * device's sharing tier before anything is stored: the exporter is the agent itself, not the laptop's AgentDash, so
 * the team server applies the tier the laptop would have applied to a push.
 *
 * By construction, an attribute is kept only when its tier's list names it (an allowlist: an attribute a newer client
 * adds stays out until it is judged):
 * - `summary`: ids that join (session, prompt, request, tool call), names (event, span, tool, model, agent type),
 *   durations, token and cost figures, success and error categories, with the Codex CLI and Gemini CLI keys core's
 *   mapping (`eventFacts`, `spanFacts`, `spanToolResult`) reads; never a prompt, a response, a tool's input or
 *   parameters, a command, a path, an error message, the user's id or e-mail;
 * - `metadata`: plus error messages and a one-line summary of each tool call (`agentdash.summary`: the tool and the
 *   first line of its command, or its file's name), secrets redacted;
 * - `full`: every attribute, secrets redacted.
 * A record's body (an event's text) is kept at `full` only, else its event name alone. Records of a shape AgentDash
 * does not model keep their raw content at `full` only.
 */
import { attrText, type OtelAttributes, type OtelRecord, type OtelValue } from '@agentdash/core';
import { baseName } from '@agentdash/core/present';
import { redactDerived } from '@agentdash/core/secrets';
import type { ShareTier } from '../contract.js';

const SUMMARY_KEYS = new Set([
  'session.id',
  'gen_ai.conversation.id',
  'prompt.id',
  'event.name',
  'event.timestamp',
  'event.sequence',
  'message.uuid',
  'request_id',
  'gen_ai.response.id',
  'tool_use_id',
  'gen_ai.tool.call.id',
  'tool_name',
  'tool_name_safe',
  'gen_ai.tool.name',
  'tool_source',
  'mcp_server.name',
  'mcp_tool.name',
  'model',
  'final_model',
  'gen_ai.request.model',
  'gen_ai.response.model',
  'gen_ai.system',
  'gen_ai.provider.name',
  'gen_ai.operation.name',
  'anthropic.provider',
  'span.type',
  'type',
  'start_type',
  'query_source',
  'query_source_safe',
  'llm_request.context',
  'terminal.type',
  'agent_id',
  'agent_type',
  'subagent_type',
  'is_async',
  'is_built_in',
  'duration_ms',
  'interaction.duration_ms',
  'interaction.sequence',
  'ttft_ms',
  'first_content_ms',
  'success',
  'attempt',
  'speed',
  'effort',
  'stop_reason',
  'gen_ai.response.finish_reasons',
  'status_code',
  'error_class',
  'error_type',
  'error.type',
  'decision',
  'source',
  'permission_mode',
  'cost_usd',
  'cost_usd_micros',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'cache_creation_5m_tokens',
  'cache_creation_1h_tokens',
  'total_tokens',
  'total_tool_uses',
  'prompt_length',
  'user_prompt_length',
  'response_length',
  'tool_input_size_bytes',
  'tool_result_size_bytes',
  'bash_command_class',
  'language',
  // what core's mapping reads of Codex CLI and Gemini CLI exports (ids, names, durations, token counts, status)
  'conversation.id',
  'call_id',
  'prompt_id',
  'gen_ai.tool.call_id',
  'event.kind',
  'model_name',
  'duration',
  'http.response.status_code',
  'input_token_count',
  'output_token_count',
  'cached_token_count',
  'cache_write_token_count',
  'cached_content_token_count',
  'thoughts_token_count',
]);
const SUMMARY_PREFIXES = ['gen_ai.usage.'];
const METADATA_KEYS = new Set(['error', 'agent.name', 'skill.name', 'skill_name', 'plugin.name']);
const RESOURCE_KEYS = new Set(['service.name', 'service.version', 'os.type', 'host.arch']);

/** The attribute `agentdash.summary` holds at `metadata`: a call's one line, made on the team server. */
export const SUMMARY_ATTRIBUTE = 'agentdash.summary';
const SUMMARY_CHARS = 120;

const keptAt = (tier: ShareTier, key: string): boolean =>
  SUMMARY_KEYS.has(key) ||
  SUMMARY_PREFIXES.some((p) => key.startsWith(p)) ||
  (tier === 'metadata' && METADATA_KEYS.has(key));

function pick(attributes: OtelAttributes, keep: (key: string) => boolean): Record<string, OtelValue> {
  const out: Record<string, OtelValue> = {};
  for (const [key, value] of Object.entries(attributes)) if (keep(key)) out[key] = value;
  return out;
}

/** A text's first line, trimmed (a pushed call's error message at `metadata` is cut the same way). */
export const firstLine = (text: string) => (text.split(/\r?\n/, 1)[0] ?? '').trim();

/** A tool call's one line (`Bash npm test`, `Edit a.ts`) from its parameters, redacted; '' when it has none. */
export function callSummary(attributes: OtelAttributes): string {
  const tool = attrText(attributes, 'tool_name') || attrText(attributes, 'gen_ai.tool.name');
  if (tool === '') return '';
  let params: Record<string, unknown> = {};
  for (const key of ['tool_parameters', 'tool_input']) {
    try {
      const parsed = JSON.parse(attrText(attributes, key)) as unknown;
      if (typeof parsed === 'object' && parsed !== null) params = { ...parsed, ...params };
    } catch {
      // not JSON: nothing to summarise from it
    }
  }
  const text = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : '');
  const command = text('full_command') || text('command') || attrText(attributes, 'full_command');
  const path = text('file_path') || text('notebook_path') || text('path') || attrText(attributes, 'file_path');
  // redacted whole before it is cut: a secret cut in two would no longer be recognised
  const what = command ? firstLine(redactDerived(command)) : path ? baseName(redactDerived(path)) : '';
  const line = what ? `${tool} ${what}` : tool;
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

/**
 * `value` without secrets. A string holding JSON (Claude Code sends a tool's parameters as a JSON text) is redacted
 * as the value it encodes, as a pushed transcript line is: a secret next to a JSON escape stays whole.
 */
export function redactOtel<T extends OtelValue>(value: T): T {
  if (typeof value === 'string') {
    if (/^\s*[[{]/.test(value)) {
      try {
        return JSON.stringify(redactDerived(JSON.parse(value) as unknown)) as T;
      } catch {
        // not JSON after all: redacted as text
      }
    }
    return redactDerived(value);
  }
  if (Array.isArray(value)) return value.map((v: OtelValue) => redactOtel(v)) as unknown as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, OtelValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactOtel(v as OtelValue);
    return out as T;
  }
  return value;
}

function attributesAt(tier: ShareTier, attributes: OtelAttributes): OtelAttributes {
  if (tier === 'full') return redactOtel(attributes);
  const kept = redactOtel(pick(attributes, (key) => keptAt(tier, key)));
  if (tier === 'metadata') {
    const summary = callSummary(attributes);
    if (summary !== '') return { ...kept, [SUMMARY_ATTRIBUTE]: summary };
  }
  return kept;
}

/** A name as a client names events and spans; below `full`, anything else (a body taken for a name) is not kept. */
const NAME = /^[\w.:/-]{1,100}$/;

/** `record` as `tier` may hold it. */
export function recordAtTier(source: OtelRecord, tier: ShareTier): OtelRecord {
  const record =
    tier === 'full' || source.kind === 'unknown' || NAME.test(source.name) ? source : { ...source, name: 'unnamed' };
  const resource = tier === 'full' ? redactOtel(record.resource) : pick(record.resource, (k) => RESOURCE_KEYS.has(k));
  switch (record.kind) {
    case 'event':
      return {
        ...record,
        resource,
        body: tier === 'full' ? redactOtel(record.body) : `claude_code.${record.name}`,
        attributes: attributesAt(tier, record.attributes),
      };
    case 'span':
      return {
        ...record,
        resource,
        attributes: attributesAt(tier, record.attributes),
        statusMessage: tier === 'summary' ? '' : redactDerived(record.statusMessage),
      };
    case 'metric':
      return { ...record, resource, attributes: attributesAt(tier, record.attributes) };
    case 'unknown':
      return { ...record, resource, raw: tier === 'full' ? redactOtel(record.raw) : null };
    default:
      return record satisfies never;
  }
}
