import { useEffect, useState } from 'react';
import { api } from './client';
import type { AgentInfo } from './types';

let loading: Promise<readonly AgentInfo[]> | undefined;

/** Every agent as its adapter declares it (label, resume command), asked once per page; undefined until known. */
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

/** What an agent is called on screen: its label, or its id until the labels are known. */
export function agentLabel(agents: readonly AgentInfo[] | undefined, id: string): string {
  return agents?.find((a) => a.id === id)?.label ?? id;
}
