import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { HealthResponse } from '../data/types';

/** The first health answer's mode, asked once per page load (a server does not change mode while it runs). */
let asked: Promise<NonNullable<HealthResponse['mode']> | undefined> | undefined;

/**
 * Whether the server is a laptop's (`local`) or a team server (`team`); undefined until known. What a page offers to
 * run (`agentdash …` on the machine that holds the transcripts) makes sense on a laptop only.
 */
export function useServerMode(): NonNullable<HealthResponse['mode']> | undefined {
  const [mode, setMode] = useState<NonNullable<HealthResponse['mode']> | undefined>(undefined);
  useEffect(() => {
    let current = true;
    asked ??= api.health().then(
      (h) => h.mode ?? 'local',
      () => {
        // asked again by the next page that needs it
        asked = undefined;
        return undefined;
      },
    );
    void asked.then((m) => {
      if (current) setMode(m);
    });
    return () => {
      current = false;
    };
  }, []);
  return mode;
}
