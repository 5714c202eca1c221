/**
 * A page's own state in its address (`#/usage?range=7d&metric=tokens`), so that a reload, Back from a session or a
 * shared link shows the same view: the parameters every page reads alike, and the hook that writes the address.
 */
import type { AgentId } from '@agentdash/core/model';
import { useEffect } from 'react';
import { replaceHash } from './router';

/** An agent id's shape: which ids exist is the server's to say (`GET /api/agents`; the filters check). */
const AGENT_ID = /^[a-z][a-z0-9-]{0,39}$/;

/** The `agent` parameter, when it has an agent id's shape; else none. */
export function agentParam(params: URLSearchParams): AgentId | '' {
  const agent = params.get('agent');
  return agent !== null && AGENT_ID.test(agent) ? (agent as AgentId) : '';
}

/** `path` with the query `params` make, without a `?` when they are empty (a page in its default state). */
export function pageHash(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** How long a page's state waits, unchanged, before it is written into the address. */
const ADDRESS_DELAY_MS = 250;

/**
 * Writes `hash` into the address once it has stayed the same for a moment (browsers limit how often a page may
 * replace its address; typing changes it at every key), without a navigation. `onHash` sees every value at once.
 */
export function useAddress(hash: string, onHash?: (hash: string) => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: onHash is called with the hash, not a reason to rerun
  useEffect(() => {
    onHash?.(hash);
    return replaceLater(hash);
  }, [hash]);
}

/**
 * `replaceHash(hash)` in `ms`, only over the address it was due to replace: a navigation meanwhile (a link, Back, a
 * typed address, whose hashchange may still be on its way, the page not yet gone) keeps its own, which this undid
 * (an analytics link to a drill-down opened the page without it). Returns the cancel.
 */
export function replaceLater(hash: string, ms = ADDRESS_DELAY_MS): () => void {
  const from = window.location.hash;
  const timer = setTimeout(() => {
    if (window.location.hash === from) replaceHash(hash);
  }, ms);
  return () => clearTimeout(timer);
}
