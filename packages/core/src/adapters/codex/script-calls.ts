/**
 * The MCP calls a Codex `exec` script makes. A script (0.144+: JavaScript calling the agent's tools as
 * `tools.mcp__server__tool({…})`) is one call of the model's; the calls it makes are named by no response item. The
 * client writes each only as an `mcp_tool_call_end` event whose `call_id` is `exec-<uuid>`, while the script runs
 * (before its output, or between the `wait` calls that fetch a long script's): the tool, its arguments, how long it
 * ran (from when the script asked: calls a script runs at once may have waited their turn), its result or error.
 * Each is a call of its own (its failure a failed call, its run in the tool's statistics), typed `fromScript`
 * (`type-input.ts`); an end event whose id a call item named is that call's facts, as any. Never throws.
 * @module
 */
import { isRecord, str } from '../../internal/guards.js';
import type { ResultBlock } from '../../model/content.js';
import { type CallFacts, withEventFacts } from './decode-items.js';
import { mcpContentBlocks } from './output.js';

/** Codex's code mode names the calls a script makes `exec-<uuid>` (the model's calls are `call_…`). */
export function isScriptCallId(id: string): boolean {
  return id.startsWith('exec-');
}

export interface ScriptCall {
  readonly id: string;
  /** As the script called it: `mcp__<server>__<tool>`, the tool's `.` as `_` (`github.get_pr_info`). */
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly content: readonly ResultBlock[];
  /** An `Err` result, or an `Ok` the server flagged `isError`. */
  readonly failed: boolean;
  /** Its facts as a call's from its events: the event itself, `durationMs`. */
  readonly facts: CallFacts;
  readonly durationMs: number | undefined;
}

/** The call an `mcp_tool_call_end` event is, when a script made it; undefined for any other (a model's call's end). */
export function scriptCallOf(payload: Record<string, unknown>): ScriptCall | undefined {
  const id = str(payload.call_id);
  if (id === undefined || !isScriptCallId(id)) return undefined;
  const invocation = isRecord(payload.invocation) ? payload.invocation : {};
  const server = str(invocation.server) ?? 'unknown';
  const tool = (str(invocation.tool) ?? 'unknown').replace(/[^A-Za-z0-9_-]/g, '_');
  const result = isRecord(payload.result) ? payload.result : {};
  const facts = withEventFacts(undefined, 'mcp_tool_call_end', payload);
  const durationMs = typeof facts.durationMs === 'number' ? facts.durationMs : undefined;
  const base = {
    id,
    name: `mcp__${server}__${tool}`,
    input: isRecord(invocation.arguments) ? invocation.arguments : {},
    facts,
    durationMs,
  };
  if ('Err' in result) {
    const error = result.Err;
    const text = typeof error === 'string' ? error : JSON.stringify(error);
    return { ...base, content: [{ kind: 'text', text: text ?? 'error' }], failed: true };
  }
  const ok = isRecord(result.Ok) ? result.Ok : {};
  const failed = ok.isError === true;
  return { ...base, content: okBlocks(ok, failed), failed };
}

/**
 * An MCP result's blocks. What the script was given is its structured content (the data a GitHub app's call
 * returns beside the text "Action completed."): that, as JSON, when it has one and did not fail; else its texts (a
 * failure's message), with a failure's structured content after them. Its images either way. The event stays whole in
 * the result's facts.
 */
function okBlocks(ok: Record<string, unknown>, failed: boolean): ResultBlock[] {
  const blocks = mcpContentBlocks(ok.content);
  const texts = blocks.filter((block) => block.kind === 'text');
  const images = blocks.filter((block) => block.kind !== 'text');
  const structured = ok.structuredContent;
  const empty =
    structured === undefined || structured === null || (isRecord(structured) && Object.keys(structured).length === 0);
  if (empty) return [...texts, ...images];
  const json: ResultBlock = { kind: 'text', text: JSON.stringify(structured, null, 2) };
  return failed ? [...texts, json, ...images] : [json, ...images];
}
