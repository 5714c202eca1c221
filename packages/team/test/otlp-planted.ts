/** OTLP/JSON export requests carrying planted markers (per tier and kind) and secrets, for the tier tests. */
import type { ShareTier } from '../src/contract.js';

/** Marker texts per tier and kind: `M(tier, kind)`. */
export const M = (tier: ShareTier, kind: string) => `MARKER-${kind}-${tier}-91d4`;
export const kinds = ['PROMPT', 'RESPONSE', 'COMMAND', 'PATHDIR', 'ERROR', 'EMAIL', 'ARGS', 'BODY', 'RAW'] as const;
/** What each tier may hold of the markers: everything else is found in no table. */
export const allowed: Record<ShareTier, readonly string[]> = {
  summary: [],
  metadata: ['COMMAND', 'ERROR'],
  full: [...kinds],
};

export const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });

export function plantedExport(tier: ShareTier, secret: string, n: number) {
  const sid = `5ec7e75a-0000-4000-8000-0000000000${n}0`;
  const nano = (s: number) => `${BigInt(Date.UTC(2026, 10, 20, 10, 0, s)) * 1_000_000n}`;
  const resource = { attributes: [kv('service.name', 'claude-code'), kv('process.command_args', M(tier, 'ARGS'))] };
  const scope = { name: 'com.anthropic.claude_code.events' };
  const logs = {
    resourceLogs: [
      {
        resource,
        scopeLogs: [
          {
            scope,
            logRecords: [
              {
                timeUnixNano: nano(1),
                body: { stringValue: `${M(tier, 'BODY')} ${secret}` },
                attributes: [
                  kv('event.name', 'user_prompt'),
                  kv('session.id', sid),
                  kv('prompt.id', `p-${n}`),
                  kv('prompt', `${M(tier, 'PROMPT')} ${secret}`),
                  kv('user.email', `${M(tier, 'EMAIL')}@example.com`),
                ],
              },
              {
                timeUnixNano: nano(2),
                body: { stringValue: 'claude_code.tool_result' },
                attributes: [
                  kv('event.name', 'tool_result'),
                  kv('session.id', sid),
                  kv('tool_name', 'Bash'),
                  kv('tool_use_id', `toolu_${n}`),
                  kv('success', 'false'),
                  kv('duration_ms', '120'),
                  kv('tool_parameters', JSON.stringify({ full_command: `echo ${M(tier, 'COMMAND')} ${secret}` })),
                  kv(
                    'tool_input',
                    JSON.stringify({ command: `echo ${M(tier, 'COMMAND')}`, path: `/x/${M(tier, 'PATHDIR')}/a.ts` }),
                  ),
                  kv('error', `${M(tier, 'ERROR')} ${secret}`),
                ],
              },
              {
                timeUnixNano: nano(3),
                body: { stringValue: 'claude_code.assistant_response' },
                attributes: [
                  kv('event.name', 'assistant_response'),
                  kv('session.id', sid),
                  kv('response', M(tier, 'RESPONSE')),
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  const traces = {
    resourceSpans: [
      {
        resource,
        scopeSpans: [
          {
            scope,
            spans: [
              {
                traceId: `${n}`.padStart(32, 'a'),
                spanId: `${n}`.padStart(16, 'b'),
                name: 'claude_code.tool',
                startTimeUnixNano: nano(2),
                endTimeUnixNano: nano(3),
                attributes: [
                  kv('session.id', sid),
                  kv('file_path', `/x/${M(tier, 'PATHDIR')}/b.ts`),
                  kv('user_prompt', M(tier, 'PROMPT')),
                ],
                status: { code: 2, message: `${M(tier, 'ERROR')} ${secret}` },
              },
            ],
          },
        ],
      },
    ],
  };
  const metrics = {
    resourceMetrics: [
      {
        resource,
        scopeMetrics: [
          {
            scope,
            metrics: [
              {
                name: 'claude_code.cost.usage',
                sum: {
                  aggregationTemporality: 1,
                  dataPoints: [
                    {
                      timeUnixNano: nano(4),
                      asDouble: 0.5,
                      attributes: [kv('session.id', sid), kv('cwd', `/x/${M(tier, 'PATHDIR')}`)],
                    },
                  ],
                },
              },
              {
                name: 'claude_code.some.histogram',
                histogram: {
                  dataPoints: [{ timeUnixNano: nano(4), attributes: [kv('prompt', `${M(tier, 'RAW')} ${secret}`)] }],
                },
              },
            ],
          },
        ],
      },
    ],
  };
  return { logs, traces, metrics };
}
