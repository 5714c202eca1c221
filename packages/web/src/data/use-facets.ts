import { useEffect, useState } from 'react';
import { api } from './client';
import type { SessionsResponse } from './types';

export type Facets = SessionsResponse['facets'];

/**
 * The filter menus' values (projects, models, agents and their versions) over every session served, whatever the
 * page shows: asked once when the page opens, as one row of the sessions list (its facets cover the whole list).
 * Undefined until they come, and after a failed request (the menus then offer the registry's agents).
 */
export function useFacets(): Facets | undefined {
  const [facets, setFacets] = useState<Facets>();
  useEffect(() => {
    const ctl = new AbortController();
    api
      .sessions({ limit: 1 }, ctl.signal)
      .then((r) => setFacets(r.facets))
      .catch(() => {});
    return () => ctl.abort();
  }, []);
  return facets;
}
