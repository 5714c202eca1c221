import type { Session } from '@agentdash/core';

type MaybePromise<T> = T | Promise<T>;

/**
 * What the server needs from the index (`@agentdash/index`'s `AgentIndex` satisfies it). Results are read
 * defensively (see `mapping.ts`), so the server only relies on the documented field names.
 */
export interface AgentIndexLike {
  refresh(paths: readonly string[], options?: { onProgress?: (progress: never) => void }): MaybePromise<unknown>;
  listSessions(filter?: never): MaybePromise<readonly unknown[]>;
  getSession(idOrPrefix: string): MaybePromise<unknown>;
  loadSession(sessionId: string): Promise<Session>;
  stats(filter?: never): MaybePromise<unknown>;
  calls(filter?: never): MaybePromise<readonly unknown[]>;
  search(query: string, filter?: never): MaybePromise<readonly unknown[]>;
  issues(filter?: never): MaybePromise<readonly unknown[]>;
  close(): MaybePromise<void>;
}

/** Filters the server passes to the index (field names from the index's documented API). */
export interface IndexFilter {
  readonly project?: string;
  readonly since?: string;
  readonly until?: string;
  readonly model?: string;
  readonly version?: string;
  readonly hasErrors?: boolean;
  readonly tool?: string;
  readonly status?: string;
  readonly category?: string;
  readonly severity?: string;
  readonly sessionId?: string;
  readonly limit?: number;
}

type Loose<T> = T extends (filter?: never) => infer R ? (filter?: IndexFilter) => R : T;
export type LooseIndex = { readonly [K in keyof AgentIndexLike]: Loose<AgentIndexLike[K]> } & {
  search(query: string, filter?: IndexFilter): MaybePromise<readonly unknown[]>;
};

/** The index with filter parameters typed as the server passes them. */
export function loose(index: AgentIndexLike): LooseIndex {
  return index as unknown as LooseIndex;
}
