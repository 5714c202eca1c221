import { existsSync } from 'node:fs';
import type { AgentAdapter, AgentHomes } from './adapter.js';
import { ownedBy } from './descriptor.js';
import { agents } from './registry.js';

let loaded: Promise<readonly AgentHomes[]> | undefined;

/**
 * Each agent's homes, in the registry's order (a command's default paths, the "holds no transcripts" check): the
 * folders' light `homes.ts`, no parser behind them. Loaded once.
 */
export function loadHomes(): Promise<readonly AgentHomes[]> {
  loaded ??= Promise.all(agents.map(async (agent) => ownedBy<AgentHomes>(agent, await agent.loadHomes())));
  return loaded;
}

/** Each agent's default homes that exist on this machine (env and home dir passed in: core has no `process`). */
export function existingHomes<A extends Pick<AgentAdapter, 'defaultHomes'>>(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
  agents: readonly A[],
): { readonly agent: A; readonly home: string }[] {
  return agents.flatMap((agent) =>
    agent
      .defaultHomes(env, homeDir)
      .filter((home) => existsSync(home))
      .map((home) => ({ agent, home })),
  );
}
