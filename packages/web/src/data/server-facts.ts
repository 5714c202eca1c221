import { api } from './client';
import { sharedOnce } from './shared-once';
import type { HealthResponse } from './types';

/**
 * What a server is for as long as it runs, from its first health answer, asked once per page load and shared: a
 * laptop's or a team server (`mode`, with the tiers it holds), started with `--redact`, showing the bundled samples.
 * The parts of health that change (the index's progress, folders without transcripts) are asked by their own views.
 */
export type ServerFacts = Pick<HealthResponse, 'mode' | 'tiers' | 'redact' | 'samples'>;

/** The server's facts; undefined until its first health answer (and after a failed one, asked again next time). */
export const useServerFacts = sharedOnce<ServerFacts | undefined>(
  () => api.health().then((h) => ({ mode: h.mode ?? 'local', tiers: h.tiers, redact: h.redact, samples: h.samples })),
  undefined,
);
