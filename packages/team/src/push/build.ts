/**
 * A local session as the team protocol carries it, at one tier: built from what the local index already computed
 * (summary, header, calls, responses), so the team server shows the laptop's numbers. Each tier's payload is built
 * field by field from the tier's own list: a field a tier does not hold is never read into it, and every text that
 * leaves at `metadata` or above goes through the secret rules first.
 */
import { redactDerived } from '@agentdash/core/secrets';
import type { AgentIndex, CallRow, SessionSummary, UsageResponse, UsageSummary } from '@agentdash/index';
import type { CallWire, FileWire, PushSession, ResponseWire, ShareTier, UsageWire } from '../contract.js';
import { digestOf } from '../digest.js';
import { projectHash, sessionUid } from './hash.js';

/** What building a session needs besides the session: the person's salt and, at the full tier, its files' chunks. */
export interface BuildContext {
  readonly index: AgentIndex;
  readonly salt: string;
}

const usageWire = (u: UsageSummary): UsageWire => ({
  responses: u.responses,
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  cacheCreationInputTokens: u.cacheCreationInputTokens,
  cacheCreation1hInputTokens: u.cacheCreation1hInputTokens,
  cacheReadInputTokens: u.cacheReadInputTokens,
  reasoningOutputTokens: u.reasoningOutputTokens,
});

const responseWire = (r: UsageResponse): ResponseWire => ({
  tsMs: r.timestampMs ?? null,
  model: r.model,
  agentId: r.context.agentId ?? null,
  input: r.tokens.inputTokens,
  output: r.tokens.outputTokens,
  cacheCreation: r.tokens.cacheCreationInputTokens,
  cacheCreation1h: r.tokens.cacheCreation1hInputTokens,
  cacheRead: r.tokens.cacheReadInputTokens,
  reasoning: r.tokens.reasoningOutputTokens,
});

/**
 * A text that leaves at `metadata` or above: the word before each cut (`…`, where the index shortened a text)
 * dropped, since a cut can fall inside a secret that no rule then recognises (`Bearer ghp_R2d2…`), then every
 * secret redacted.
 */
export function outgoingText(text: string): string {
  return redactDerived(text.includes('…') ? text.replace(/\S*…/g, '…') : text);
}

const redacted = (text: string | undefined): string | null => (text === undefined ? null : outgoingText(text));

function callWire(c: CallRow, tier: ShareTier): CallWire {
  const base = {
    id: c.callId,
    tool: c.tool,
    canonical: c.canonicalTool,
    ts: c.timestamp ?? null,
    status: c.status,
    category: c.category ?? null,
    severity: c.severity ?? null,
    durationMs: c.durationMs ?? null,
    exitCode: c.exitCode ?? null,
    agentId: c.agentId ?? null,
  };
  if (tier === 'summary') return base;
  return { ...base, summary: outgoingText(c.summary), errorMessage: redacted(c.errorMessage) };
}

/** The name of a project folder (its last path part): never a path of this machine. */
export const folderName = (projectDir: string): string => projectDir.split(/[\\/]/).pop() ?? projectDir;

/** The session's uid on the team server. */
export const uidOf = (salt: string, s: SessionSummary): string => sessionUid(salt, s.agent, s.key);

/**
 * The session at `tier`, with its digest. `files` is the full tier's transcripts (see `fileChunks`), required there
 * and ignored below it.
 */
export function buildSession(
  ctx: BuildContext,
  s: SessionSummary,
  tier: ShareTier,
  files: readonly FileWire[] = [],
): PushSession {
  const calls = ctx.index.calls({ sessionId: s.id }).filter((c) => c.sessionRef === s.ref);
  const responses = ctx.index
    .usageResponses({ sessionId: s.id })
    .filter((r) => r.context.sessionKey === s.key)
    .map(responseWire);
  const header = ctx.index.sessionHeader(s.ref);
  const summaryHeader = {
    totalEvents: header?.totalEvents ?? 0,
    counts: { ...(header?.counts ?? {}) },
    toolCounts: { ...(header?.toolCounts ?? {}) },
  };
  const summary = {
    uid: uidOf(ctx.salt, s),
    digest: '',
    agent: s.agent,
    sessionId: s.id,
    projectHash: projectHash(ctx.salt, s.projectPath ?? s.projectDir),
    startedAt: s.startedAt ?? null,
    endedAt: s.endedAt ?? null,
    durationMs: s.durationMs ?? null,
    messages: s.messages,
    prompts: s.prompts,
    toolCalls: s.toolCalls,
    errors: s.errors,
    expectedErrors: s.expectedErrors,
    subagents: s.subagents,
    issues: s.issues,
    secrets: s.secrets,
    archived: s.archived,
    isLive: s.isLive,
    versions: [...s.versions],
    models: [...s.models],
    usage: usageWire(s.usage),
    subagentUsage: usageWire(s.subagentUsage),
    usageByModel: Object.fromEntries(Object.entries(s.usageByModel).map(([m, u]) => [m, usageWire(u)])),
    costUsd: s.costUsd,
    subagentCostUsd: s.subagentCostUsd,
    unpricedModels: [...s.unpricedModels],
    time: {
      wallMs: s.time.wallMs,
      modelMs: s.time.modelMs,
      toolMs: s.time.toolMs,
      userMs: s.time.userMs,
      idleMs: s.time.idleMs,
    },
    responses,
    calls: calls.map((c) => callWire(c, tier)),
  };
  let session: PushSession;
  if (tier === 'summary') {
    session = { tier, ...summary, header: summaryHeader } as PushSession;
  } else {
    const metadata = {
      ...summary,
      title: redacted(s.title),
      titleSource: s.titleSource ?? null,
      projectPath: redacted(s.projectPath),
      projectDir: redactDerived(folderName(s.projectDir)),
      gitBranch: redacted(s.gitBranch),
      header: {
        ...summaryHeader,
        subagents: redactDerived(header?.subagents ?? []) as unknown[],
        shells: { ...(header?.shells ?? {}) },
      },
    };
    session = (tier === 'metadata' ? { tier, ...metadata } : { tier, ...metadata, files: [...files] }) as PushSession;
  }
  return { ...session, digest: digestOf(session as unknown as Record<string, unknown>) };
}
