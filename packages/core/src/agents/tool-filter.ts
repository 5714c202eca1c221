/**
 * What a tool filter (`--tool NAME`, `?tool=`) selects, one rule for the local index, the team server and search: a
 * call written under NAME, named NAME now, or named now what its own agent calls NAME now. A former name selects the
 * whole tool (`Task` is Claude Code's `Agent`: its calls written `Agent` too), and per agent (`shell` is Codex's
 * `exec_command`, never another agent's tool that happens to be named `shell`).
 * @module
 */
import type { AgentId } from '../model/agent.js';
import { adapterFor, agentAdapters } from './adapters.js';

/** Each agent whose current name of `tool` is another name: that name. */
export function toolTargets(tool: string): readonly (readonly [agent: AgentId, canonical: string])[] {
  return agentAdapters.flatMap((adapter) => {
    const canonical = adapter.canonicalToolName(tool);
    return canonical === tool ? [] : [[adapter.id, canonical] as const];
  });
}

/** Whether a call (its written name, current name and agent) is of the tool a filter names. */
export function isOfTool(
  call: { readonly name: string; readonly canonical: string; readonly agent: AgentId },
  tool: string,
): boolean {
  if (call.name === tool || call.canonical === tool) return true;
  return adapterFor(call.agent)?.canonicalToolName(tool) === call.canonical;
}

/** Whether a call written `name` by `agent` is of the tool a filter names (its current name by its agent's rule). */
export function isWrittenOfTool(name: string, agent: AgentId, tool: string): boolean {
  const canonical = adapterFor(agent)?.canonicalToolName(name) ?? name;
  return isOfTool({ name, canonical, agent }, tool);
}
