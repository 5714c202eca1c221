/** `GET /api/health` (the index build's progress, the server's mode) and `/agents` (every agent's label). */
import { Hono } from 'hono';
import type { HealthResponse } from '../api-types.js';
import type { AppServices } from '../app-services.js';
import { agentInfos } from '../mapping.js';

export function healthRoutes(services: AppServices) {
  const { deps } = services;
  return new Hono()
    .get('/health', async (c) => {
      const noTranscripts = deps.noTranscripts?.();
      const body: HealthResponse = {
        success: true,
        paths: deps.paths.length,
        index: services.indexStatus(),
        redact: services.redact,
        mode: deps.team ? 'team' : 'local',
        ...(deps.team ? { tiers: await deps.team.tiers() } : {}),
        samples: deps.samples === true,
        ...(noTranscripts === undefined ? {} : { noTranscripts }),
      };
      return c.json(body);
    })
    .get('/agents', (c) => c.json(agentInfos()));
}
