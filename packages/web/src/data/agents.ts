import { useEffect, useState } from 'react';
import { api } from './client';
import type { AgentInfo } from './types';

let loading: Promise<readonly AgentInfo[]> | undefined;

/**
 * Every agent as the registry declares it (label, resume command, homes, badge colours), asked once per page;
 * undefined until known.
 */
export function useAgents(): readonly AgentInfo[] | undefined {
  const [agents, setAgents] = useState<readonly AgentInfo[] | undefined>();
  useEffect(() => {
    let live = true;
    loading ??= api.agents().then(
      (r) => r.agents,
      () => {
        loading = undefined; // asked again by the next screen
        return [];
      },
    );
    loading.then((found) => {
      if (live) setAgents(found);
    });
    return () => {
      live = false;
    };
  }, []);
  return agents;
}

/** Every agent's name, "A, B or C" (as core's `agentLabels` says it for the CLI). */
export function agentLabels(agents: readonly AgentInfo[]): string {
  const labels = agents.map((agent) => agent.label);
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}
