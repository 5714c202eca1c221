/**
 * Claude Code sessions planted for the team's usage tests: each response's time and input-side tokens chosen, the
 * rest of its usage fixed, so a test puts responses exactly where a coarser sum or a wrong ranking would show.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The model of the planted responses unless one is named. */
export const MODEL = 'claude-sonnet-4-5-20250929';

/**
 * A Claude Code session of one user prompt and these assistant responses: when (ISO) and how many input-side tokens
 * (the rest of the usage fixed).
 */
export function writeSession(
  root: string,
  project: string,
  id: string,
  responses: readonly [string, number][],
  model = MODEL,
): void {
  const cwd = `/home/dev/${project}`;
  const folder = join(root, 'projects', cwd.replaceAll('/', '-'));
  mkdirSync(folder, { recursive: true });
  const base = { sessionId: id, cwd, version: '2.1.330', userType: 'external' };
  const first = responses[0]?.[0] ?? '2026-11-20T10:00:00.000Z';
  const records: unknown[] = [
    {
      ...base,
      type: 'user',
      uuid: `${id}-u`,
      parentUuid: null,
      timestamp: first,
      message: { role: 'user', content: 'go' },
    },
  ];
  responses.forEach(([timestamp, prompt], i) => {
    records.push({
      ...base,
      type: 'assistant',
      uuid: `${id}-a${i}`,
      parentUuid: i === 0 ? `${id}-u` : `${id}-a${i - 1}`,
      timestamp,
      requestId: `req_${id}_${i}`,
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model,
        content: [{ type: 'text', text: 'ok' }],
        // the input side split over fresh input, cache writes and cache reads, as the tier counts it
        usage: {
          input_tokens: prompt - 2_000 - Math.floor(prompt / 2),
          cache_creation_input_tokens: 2_000,
          cache_read_input_tokens: Math.floor(prompt / 2),
          output_tokens: 1_000 + i,
        },
      },
    });
  });
  writeFileSync(join(folder, `${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}
