import type { DataKind } from '../../model/typed-result.js';

/** Codex's shell tool has had several names; statistics count them as one tool under its current name. */
const ALIASES: Readonly<Record<string, string>> = {
  shell: 'exec_command',
  shell_command: 'exec_command',
  local_shell: 'exec_command',
  'container.exec': 'exec_command',
};

/**
 * The tool's current name; a model-made suffix such as `<|channel|>…` is cut off, and an app tool's name joined with
 * a separator too many (`mcp__codex_apps__github___fetch_pr`, as an index written before the decoder knew) is Codex's
 * own (`mcp__codex_apps__github_fetch_pr`). A multi-agent tool of the `collaboration` namespace (0.145:
 * `{"namespace":"collaboration","name":"spawn_agent"}`, which the decoder joins as `collaboration__spawn_agent`) is
 * the tool it names, as the flat `spawn_agent` of earlier versions.
 */
export function canonicalCodexToolName(name: string): string {
  const clean = name
    .replace(/<\|.*$/s, '')
    .replace(/^(mcp__.+?__[^_].*?)___(?=[^_])/, '$1_')
    .replace(/^collaboration(?:__|\.)(?=[a-z])/, '');
  return ALIASES[clean] ?? clean;
}

/**
 * `mcp__server__tool` (0.50/0.98 flat names, 0.169 namespace + name joined by the decoder, and a legacy rollout's
 * `server__tool` as `legacyMcpName` renames it).
 */
export function parseCodexMcpName(name: string): { readonly server: string; readonly tool: string } | undefined {
  const match = /^mcp__(.+?)__(.+)$/s.exec(name);
  return match ? { server: match[1] ?? '', tool: match[2] ?? '' } : undefined;
}

/**
 * A legacy rollout's (Aug 2025, before `session_meta`) MCP tool name, `server__tool` (split at the first `__` as
 * codex-rs then did, `fully_qualified_tool_name`), as later clients write it: `mcp__server__tool`. Only that record
 * shape wrote such names: in ../shared every rollout with `session_meta` (corpus 0.50/0.98/0.169, wild 0.34 → 0.145)
 * names its MCP tools `mcp__…`, so a `__` in their names is no server (a namespace of Codex's own joined by the
 * decoder, say) and the decoder asks this of legacy rollouts only.
 */
export function legacyMcpName(name: string): string {
  return !name.startsWith('mcp__') && /^[^_].*?__[^_]/s.test(name) ? `mcp__${name}` : name;
}

/** The kind each tool's results are typed onto (`typeCodexResult`), known before a result arrives. */
export function kindOfCodexTool(canonicalName: string): DataKind | undefined {
  if (SHELL_TOOLS.has(canonicalName)) return 'bash';
  if (parseCodexMcpName(canonicalName) !== undefined) return 'mcp';
  return KINDS[canonicalName];
}

const KINDS: Readonly<Record<string, DataKind>> = {
  apply_patch: 'patch',
  update_plan: 'todo-write',
  view_image: 'read',
  web_search: 'web-search',
  tool_search: 'tool-search',
  spawn_agent: 'agent',
  wait_agent: 'agent-wait',
  // Questions put to the user (its answer is the person's time, not the tool's).
  request_user_input: 'ask-user-question',
};

/**
 * The multi-agent tools (codex-rs `collab`: v1 flat names, v2 the `collaboration` namespace's), whose refusals are
 * client messages of their own (`errors.ts`). `wait` is v1's name of `wait_agent`.
 */
export const MULTI_AGENT_TOOLS: ReadonlySet<string> = new Set([
  'spawn_agent',
  'send_input',
  'send_message',
  'followup_task',
  'resume_agent',
  'wait',
  'wait_agent',
  'list_agents',
  'close_agent',
]);

/**
 * Tool names of commands run in a shell (their output carries an exit code). Not the freeform `exec` of 0.144+, whose
 * input is a JavaScript script that calls `tools.exec_command(…)` and the other tools and prints with `text(…)`, and
 * whose output starts "Script completed" (or "Script running with cell ID N", its rest got by `wait {cell_id}`).
 */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['exec_command', 'write_stdin', 'unified_exec']);
