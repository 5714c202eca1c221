import { useEffect, useState } from 'react';
import { api } from './client';
import type { HealthResponse } from './types';

/**
 * What a server is for as long as it runs, from its first health answer, asked once per page load and shared: a
 * laptop's or a team server (`mode`, with the tiers it holds), started with `--redact`, showing the bundled samples.
 * The parts of health that change (the index's progress, folders without transcripts) are asked by their own views.
 */
export type ServerFacts = Pick<HealthResponse, 'mode' | 'tiers' | 'redact' | 'samples'>;

let asked: Promise<ServerFacts | undefined> | undefined;

/** The server's facts; undefined until its first health answer (and after a failed one, asked again next time). */
export function useServerFacts(): ServerFacts | undefined {
  const [facts, setFacts] = useState<ServerFacts | undefined>(undefined);
  useEffect(() => {
    let current = true;
    asked ??= api.health().then(
      (h) => ({ mode: h.mode ?? 'local', tiers: h.tiers, redact: h.redact, samples: h.samples }),
      () => {
        // asked again by the next view that needs it
        asked = undefined;
        return undefined;
      },
    );
    void asked.then((found) => {
      if (current) setFacts(found);
    });
    return () => {
      current = false;
    };
  }, []);
  return facts;
}
