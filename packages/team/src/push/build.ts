/**
 * A local session as the team protocol carries it, at one tier: built from what the local index already computed
 * (summary, header, calls, responses), so the team server shows the laptop's numbers. Each tier's payload is built
 * field by field from the tier's own list: a field a tier does not hold is never read into it, and every text that
 * leaves at `metadata` or above goes through the secret rules first.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { agentInfos } from '@agentdash/core/base';
import { baseName } from '@agentdash/core/present';
import { mayHold, redactDerived } from '@agentdash/core/secrets';
import type { AgentIndex, CallRow, SessionFilter, SessionSummary, UsageResponse, UsageSummary } from '@agentdash/index';
import type { CallWire, CopiedWire, FileWire, PushSession, ResponseWire, ShareTier, UsageWire } from '../contract.js';
import { digestOf } from '../digest.js';
import { firstLine } from '../otel/share.js';
import { subagentWire } from '../subagent-wire.js';
import { opaqueSessionId, projectHash, responseKey, sessionUid } from './hash.js';

/** What building a session needs besides the session: the person's salt and, at the full tier, its files' chunks. */
export interface BuildContext {
  readonly index: AgentIndex;
  readonly salt: string;
  /**
   * Each API response once, by the key of the session it belongs to (`responsesBySession`): a response that a
   * resume or fork copied belongs to the session that started first, as the local usage counts it. Read once per
   * push; without it each build reads the whole index's responses.
   */
  readonly responses?: ReadonlyMap<string, readonly UsageResponse[]>;
}

/** Every response of the sessions `filter` selects, each once, by the key of the session it belongs to. */
export function responsesBySession(index: AgentIndex, filter: SessionFilter = {}): Map<string, UsageResponse[]> {
  const { paths, agent, project } = filter;
  const out = new Map<string, UsageResponse[]>();
  for (const r of index.usageResponses({
    ...(paths ? { paths } : {}),
    ...(agent ? { agent } : {}),
    ...(project ? { project } : {}),
  })) {
    const list = out.get(r.context.sessionKey);
    if (list) list.push(r);
    else out.set(r.context.sessionKey, [r]);
  }
  return out;
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

const responseWire = (salt: string, r: UsageResponse): ResponseWire => ({
  tsMs: r.timestampMs ?? null,
  model: r.model,
  agentId: r.context.agentId ?? null,
  input: r.tokens.inputTokens,
  output: r.tokens.outputTokens,
  cacheCreation: r.tokens.cacheCreationInputTokens,
  cacheCreation1h: r.tokens.cacheCreation1hInputTokens,
  cacheRead: r.tokens.cacheReadInputTokens,
  reasoning: r.tokens.reasoningOutputTokens,
  ...(r.inputUnrecorded ? { inputUnrecorded: true } : {}),
  ...(r.outputUnrecorded ? { outputUnrecorded: true } : {}),
  key: responseKey(salt, r.key),
});

/** The word (a run without spaces or quotes) of 8 characters or more that ends at a cut, matched from its start only. */
const CUT_WORD = /(?<![^\s"'`])[^\s"'`]{8,}…/g;

/** How far before a cut word a secret's name may stand (`--token`, `Authorization: Bearer`, `password:`). */
const NAME_ROOM = 40;

/**
 * Whether a word cut short may be the start of a secret: it holds a letter and a digit (`Qw8!zKp7…`, most random
 * values), or it or the words just before it pass the rules' cheap test (a secret's prefix, `sk-proj-CUTOPEN…`,
 * `ghp_…`, or its name, `OPENAI_API_KEY=…`, `--token abcdefgh…`): no rule can tell a value cut short, so its start
 * is not sent.
 */
function mayBeSecretStart(text: string, word: string, at: number): boolean {
  if (/[0-9]/.test(word) && /[A-Za-z]/.test(word)) return true;
  // a URL cut inside its password, before the `@` its rule needs (`postgresql://app:Abcdefgh…`)
  if (/:\/\/[^\s/]*:/.test(word)) return true;
  return mayHold(text.slice(Math.max(0, at - NAME_ROOM), at + word.length));
}

/**
 * A text that leaves at `metadata` or above: a word that ends at a cut (`…`, where the index shortened the text) and
 * may be the start of a secret (`mayBeSecretStart`) is dropped whole, since no rule recognises a value cut short (its
 * start is no less the secret's); words of prose before a cut stay. Then every secret is redacted.
 */
export function outgoingText(text: string): string {
  const uncut = text.includes('…')
    ? text.replace(CUT_WORD, (run, at: number) => (mayBeSecretStart(text, run, at) ? '…' : run))
    : text;
  return redactDerived(uncut);
}

/** At most `max` characters (the contract's cap for the field), cut with `…` (then treated as every cut is). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A text for a field capped at `max`: clipped, redacted, and clipped again (a marker can be longer than a secret). */
function fit(text: string, max: number): string {
  return clip(outgoingText(clip(text, max)), max);
}

const redacted = (text: string | undefined, max: number): string | null => (text === undefined ? null : fit(text, max));

/**
 * A session id an agent generated: a UUID, a prefixed random id (`ses_…`), or one `opaqueSessionId` made. Any other
 * is a file's name (a transcript whose records carry no id is its file's: `acme-merger-plan.jsonl`) and may name
 * something: hashed at the summary tier.
 */
const GENERATED_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z]{2,5}_[0-9A-Za-z]{16,}|h-[0-9a-f]{32})$/i;

/**
 * How a session's and its calls' ids leave at `tier`: as they are, but below the metadata tier a session id that holds
 * names of the person's becomes a salted hash, and so does the start of each call id that is its session's id. Such an
 * id is an agent's whose ids name things (`AgentInfo.namedIds`), or a headless run's output kept apart under its
 * session's id, `<id>@<output file name>` (core's io/headless.ts): the file's name may name a job or a branch; or any id
 * no agent generated (`GENERATED_ID`).
 */
export function idsOut(salt: string, agent: string, tier: ShareTier) {
  const namedAgent = agentInfos.some((a) => a.id === agent && 'namedIds' in a && a.namedIds === true);
  const hashed = (id: string) => tier === 'summary' && (namedAgent || id.includes('@') || !GENERATED_ID.test(id));
  const session = (id: string) => (hashed(id) ? opaqueSessionId(salt, agent, id) : id);
  return {
    session,
    call: (callId: string, sessionId: string) =>
      hashed(sessionId) && callId.startsWith(sessionId)
        ? `${session(sessionId)}${callId.slice(sessionId.length)}`
        : callId,
  };
}
type IdsOut = ReturnType<typeof idsOut>;

function callWire(c: CallRow, tier: ShareTier, ids: IdsOut): CallWire {
  const base = {
    id: ids.call(c.callId, c.sessionId),
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
  // redacted whole, then cut: at `metadata` the first line (a failed shell's `Exit code 1`, not its output)
  const error = redacted(c.errorMessage, 4000);
  return { ...base, summary: fit(c.summary, 2000), errorMessage: tier === 'full' || !error ? error : firstLine(error) };
}

/**
 * What the session's transcript holds of other sessions of this laptop (`sessionCopies`), each named by its uid on
 * the team server; a session the index no longer knows is left out.
 */
function copiedFromOf(ctx: BuildContext, s: SessionSummary, ids: IdsOut): CopiedWire[] {
  return ctx.index.sessionCopies(s.ref).flatMap((from) => {
    const source = ctx.index.getSession(from.ref);
    if (source === undefined) return [];
    // The payload carries no copy's `inputUnrecordedModels` nor `outputUnrecordedModels` (its strict schema would
    // refuse the session).
    const {
      ref: _ref,
      title: _title,
      callIds,
      inputUnrecordedModels: _unrecorded,
      outputUnrecordedModels: _cut,
      ...counts
    } = from;
    return [{ uid: uidOf(ctx.salt, source), ...counts, callIds: callIds.map((id) => ids.call(id, source.id)) }];
  });
}

/** A file's name in the payload: relative to its project folder, never a path of this machine. */
export function fileName(projectDir: string, path: string): string {
  const rel = relative(projectDir, path);
  const name = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? (path.split(/[\\/]/).pop() ?? path) : rel;
  return name.split(sep).join('/');
}

/**
 * A subagent's key as it leaves: a thread read from a subagent file the index knows no agent id for is keyed by the
 * file's path (index's session-header.ts), a path of this machine: it goes as the file's name in the payload.
 */
const subagentKey = (s: SessionSummary, key: string): string => (isAbsolute(key) ? fileName(s.projectDir, key) : key);

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
  // By its key, which names it alone: its id may be another project folder's session's too (a copied folder).
  const calls = ctx.index.calls({ sessionId: s.key });
  const ids = idsOut(ctx.salt, s.agent, tier);
  const wireCalls = calls.map((c) => callWire(c, tier, ids));
  const responses = ((ctx.responses ?? responsesBySession(ctx.index)).get(s.key) ?? []).map((r) =>
    responseWire(ctx.salt, r),
  );
  const header = ctx.index.sessionHeader(s.ref);
  const copiedFrom = copiedFromOf(ctx, s, ids);
  const summaryHeader = {
    totalEvents: header?.totalEvents ?? 0,
    counts: { ...(header?.counts ?? {}) },
    toolCounts: { ...(header?.toolCounts ?? {}) },
    // left out when there is none: the digest of a session without copies is the one payload 1 gave it
    ...(copiedFrom.length > 0 ? { copiedFrom } : {}),
  };
  const summary = {
    uid: uidOf(ctx.salt, s),
    digest: '',
    agent: s.agent,
    sessionId: ids.session(s.id),
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
    ...(s.inputUnrecordedModels === undefined ? {} : { inputUnrecordedModels: [...s.inputUnrecordedModels] }),
    ...(s.outputUnrecordedModels === undefined ? {} : { outputUnrecordedModels: [...s.outputUnrecordedModels] }),
    time: {
      wallMs: s.time.wallMs,
      modelMs: s.time.modelMs,
      toolMs: s.time.toolMs,
      userMs: s.time.userMs,
      idleMs: s.time.idleMs,
    },
    responses,
    calls: wireCalls,
  };
  let session: PushSession;
  if (tier === 'summary') {
    // the list's rule for an empty session needs to know whether there is a title, not the title
    session = { tier, ...summary, titled: (s.title ?? '') !== '', header: summaryHeader } as PushSession;
  } else {
    const summaries = new Map(wireCalls.map((c) => [c.id, c.summary]));
    const summaryOf = (id: string) => summaries.get(id);
    const metadata = {
      ...summary,
      title: redacted(s.title, 2000),
      titleSource: s.titleSource ?? null,
      projectPath: redacted(s.projectPath, 4000),
      projectDir: fit(baseName(s.projectDir), 1000),
      gitBranch: redacted(s.gitBranch, 1000),
      header: {
        ...summaryHeader,
        subagents: (header?.subagents ?? []).map((sub) =>
          subagentWire({ ...sub, key: subagentKey(s, sub.key) }, tier, summaryOf, fit),
        ),
        shells: { ...(header?.shells ?? {}) },
      },
    };
    session = (tier === 'metadata' ? { tier, ...metadata } : { tier, ...metadata, files: [...files] }) as PushSession;
  }
  return { ...session, digest: digestOf(session as unknown as Record<string, unknown>) };
}
