/** Pushed sessions built by hand, each satisfying the contract's schema for its tier, with its digest computed. */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type FullSession,
  type MetadataSession,
  type PushSession,
  type SummarySession,
  TEAM_PAYLOAD_VERSION,
  type UsageWire,
} from '../src/contract.js';
import { digestOf } from '../src/digest.js';

export const uidOf = (n: number | string): string => createHash('sha256').update(`uid:${n}`).digest('hex').slice(0, 32);

const usage = (input: number, output: number): UsageWire => ({
  responses: 2,
  inputTokens: input,
  outputTokens: output,
  cacheCreationInputTokens: 10,
  cacheCreation1hInputTokens: 0,
  cacheReadInputTokens: 100,
  reasoningOutputTokens: 0,
});

function summaryBase(n: number, startedAt: string) {
  const ts = Date.parse(startedAt);
  return {
    uid: uidOf(n),
    agent: 'claude',
    sessionId: `session-${n}`,
    projectHash: createHash('sha256')
      .update(`project:${n % 3}`)
      .digest('hex')
      .slice(0, 32),
    startedAt,
    endedAt: new Date(ts + 60_000).toISOString(),
    durationMs: 60_000,
    messages: 4,
    prompts: 1,
    toolCalls: 2,
    errors: 1,
    expectedErrors: 0,
    subagents: 0,
    issues: 0,
    secrets: 0,
    archived: false,
    isLive: false,
    versions: ['2.0.1'],
    models: ['claude-sonnet-4-5'],
    usage: usage(1000 + n, 200),
    subagentUsage: usage(0, 0),
    usageByModel: { 'claude-sonnet-4-5': usage(1000 + n, 200) },
    costUsd: 0.01 * (n + 1),
    subagentCostUsd: null,
    unpricedModels: [],
    time: { wallMs: 60_000, modelMs: 30_000, toolMs: 20_000, userMs: 5_000, idleMs: 5_000 },
    responses: [0, 1].map((i) => ({
      tsMs: ts + i * 1000,
      model: 'claude-sonnet-4-5',
      agentId: null,
      input: i === 0 ? 1000 + n : 0,
      output: 100,
      cacheCreation: i === 0 ? 10 : 0,
      cacheCreation1h: 0,
      cacheRead: 50,
      reasoning: 0,
    })),
  };
}

/** A session's two calls, their ids its own (a laptop's call ids name one call: Claude Code's `toolu_…`). */
const summaryCalls = (n: number, startedAt: string) => [
  {
    id: `toolu_${n}_1`,
    tool: 'Bash',
    canonical: 'shell',
    ts: startedAt,
    status: 'error' as const,
    category: 'test-failure',
    severity: 'unexpected',
    durationMs: 1200,
    exitCode: 1,
    agentId: null,
  },
  {
    id: `toolu_${n}_2`,
    tool: 'Edit',
    canonical: 'edit',
    ts: startedAt,
    status: 'ok' as const,
    category: null,
    severity: null,
    durationMs: 15,
    exitCode: null,
    agentId: null,
  },
];

/** `s` with its digest computed (over itself with an empty one, as `digestOf` takes it). */
export const seal = <T extends PushSession>(s: Omit<T, 'digest'>): T => {
  const withDigest = { ...s, digest: '' } as T;
  return { ...withDigest, digest: digestOf(withDigest) };
};

export function summarySession(n: number, startedAt = `2026-03-0${1 + (n % 9)}T10:00:00.000Z`): SummarySession {
  return seal<SummarySession>({
    tier: 'summary',
    ...summaryBase(n, startedAt),
    header: { totalEvents: 10, counts: { user: 1, assistant: 2 }, toolCounts: { Bash: 1, Edit: 1 } },
    calls: summaryCalls(n, startedAt),
  });
}

export function metadataSession(n: number, title: string | null = `fix the build ${n}`): MetadataSession {
  const startedAt = `2026-03-0${1 + (n % 9)}T10:00:00.000Z`;
  return seal<MetadataSession>({
    tier: 'metadata',
    ...summaryBase(n, startedAt),
    title,
    titleSource: 'ai-title',
    projectPath: `/home/dev/app${n % 3}`,
    projectDir: `-home-dev-app${n % 3}`,
    gitBranch: 'main',
    header: {
      totalEvents: 10,
      counts: { user: 1, assistant: 2 },
      toolCounts: { Bash: 1, Edit: 1 },
      subagents: [],
      shells: {},
    },
    calls: summaryCalls(n, startedAt).map((c, i) => ({
      ...c,
      summary: i === 0 ? 'npm test → exit 1' : 'Edit a.ts +3 −1',
      errorMessage: i === 0 ? '1 test failed' : null,
    })),
  });
}

/** A Claude Code transcript of one user prompt per text, one second apart from 10:00 on 2026-03-01. */
export const promptsTranscript = (n: number, texts: readonly string[]): string =>
  `${texts
    .map((content, i) =>
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content },
        uuid: `00000000-0000-4000-8000-${String(n * 10_000 + i).padStart(12, '0')}`,
        timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(),
        sessionId: `5ec7e75a-0000-4000-8000-${String(n).padStart(12, '0')}`,
      }),
    )
    .join('\n')}\n`;

/** A transcript's chunks as the laptop sends them: gzip of each piece of text, named by SHA-256. */
export function chunksOf(pieces: readonly string[]): { sha256: string; bytes: Buffer }[] {
  return pieces.map((text) => {
    const bytes = gzipSync(Buffer.from(text, 'utf8'));
    return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
  });
}

/**
 * A full-tier session of one main file made of `chunks`; the file's bytes are what the chunks hold once gunzipped (as a
 * laptop declares them), `declared` else.
 */
export function fullSession(
  n: number,
  chunks: readonly { sha256: string; bytes?: Buffer }[],
  title?: string | null,
  declared?: number,
): FullSession {
  const m = metadataSession(n, title);
  const { digest: _d, tier: _t, ...rest } = m;
  return seal<FullSession>({
    ...rest,
    // the metadata session's subagents (none) as the full tier tells them
    header: { ...rest.header, subagents: [] },
    tier: 'full',
    files: [
      {
        name: `session-${n}.jsonl`,
        role: 'main',
        agentId: null,
        bytes: declared ?? chunks.reduce((sum, c) => sum + (c.bytes ? gunzipSync(c.bytes).length : 0), 0),
        chunks: chunks.map((c) => c.sha256),
      },
    ],
  });
}

export const sessionsBody = (sessions: readonly PushSession[], version = TEAM_PAYLOAD_VERSION) => ({
  version,
  sessions,
});
