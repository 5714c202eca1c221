/**
 * The team protocol, version 8 (`TEAM_PAYLOAD_VERSION` says what changed): what a laptop's `agentdash push` sends
 * to a team server, and what each sharing tier may hold. Both sides parse with these schemas; a session's schema is strict for its tier, so a field above the
 * tier is a 400, never stored (privacy by construction: the server cannot keep what it refuses to read).
 *
 * Routes (all under `/api/team/v1`, `Authorization: Bearer <device token>`, JSON bodies, gzip allowed):
 * - `GET  /whoami`            → `WhoAmI`: who the token is, the person's salt for hashes, the payload version.
 * - `POST /push/manifest`     `ManifestRequest` → `ManifestResponse`: the sessions whose digest the server lacks.
 * - `POST /push/chunks/check` `ChunkCheckRequest` → `ChunkCheckResponse`: the transcript chunks it lacks (full tier).
 * - `PUT  /push/chunks/:sha256` raw chunk bytes (gzip of the redacted text) → `{ stored: boolean }`.
 * - `POST /push/chunks`       several chunks in one body (chunk-batch.ts) → `{ stored: number }` (the new ones).
 * - `POST /push/sessions`     `SessionsRequest` → `SessionsResponse`: upsert whole sessions (each atomically).
 * - `POST /push/forget`       `ForgetRequest` → `{ forgotten: number }`; the uids stay recorded as the person's,
 *                              forgotten (pg/forgotten.ts): their telemetry dropped, their pushes refused.
 * - `POST /push/forget-sessions` `ForgetSessionsRequest` → `{ forgotten: number }`: a forget naming each uid's
 *                              session id, recorded for a uid the server never held too (a server without the
 *                              route, 404: the laptop sends a forget of the uids).
 * - `POST /push/take-back`    `ForgetRequest` → `{ forgotten: number }`: headless runs' copies whose transcripts
 *                              the server holds, deleted as by a forget but not recorded (a server without the
 *                              route, 404, records no forget: the laptop sends a forget there).
 * - `POST /push/unforget`     `ForgetRequest` → `UnforgetResponse`: the person's records cleared (a server without
 *                              the route, 404, keeps none).
 *
 * Every response is the envelope `{ success: true, data }` / `{ success: false, error, code? }`. A body whose
 * `version` differs from `TEAM_PAYLOAD_VERSION` is a 409 whose error says which side to upgrade.
 */
import { z } from 'zod';

/**
 * The payload version this build speaks. Bump on any change a peer of the previous version would misread. 2: a
 * session's header names the sessions its copies come from; 3: the metadata tier's subagents carry the description of
 * the call that started them, not their prompt (the full tier's carry both); 4: a session and its responses may say
 * which recorded no input (`inputUnrecordedModels`, `inputUnrecorded`: Copilot CLI 1.0.64), fields a server of 3
 * refuses, so it says to upgrade it instead; 5: and which kept only the stream's first output count
 * (`outputUnrecordedModels`, `outputUnrecorded`: Claude Code's block records written before the final count); 6: a
 * summary-tier session says whether the laptop has a title for it (`titled`, the title itself staying there), so the
 * team's list shows and hides it as the laptop's does; 7: a session whose wall time is unknown says so (`time.wallMs`
 * null), where older versions sent 0 (a server of 6 refuses null; this one reads their 0 as unknown: `reportedTime`);
 * 8: each response says which it is (`key`, a salted hash of the laptop's response key), so the team counts once a
 * response two of the person's sessions hold (one home at two paths on two devices: pg/response-copies.ts); a server
 * of 7 refuses the field, an older laptop's responses carry none and count as before; 9: a session's copies say how
 * many of their prompts it holds (`copiedFrom[].prompts`), a field a server of 8 refuses; an older laptop's copies
 * carry none, and the team's notice of them names their calls and responses only.
 */
export const TEAM_PAYLOAD_VERSION = 9;
/**
 * The versions a team server takes: its own, and those it can read as its own (version 1 is version 2 without
 * `copiedFrom`; a version 1 or 2 session's subagents are read as version 3's by `fromOlderPayload`, their prompts
 * dropped below the full tier), so a laptop not upgraded yet can still push and forget.
 */
export const TEAM_PAYLOAD_VERSIONS_TAKEN: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** The first payload version whose sessions are told as their tier says (subagents, ids): older ones are read so. */
export const PAYLOAD_TOLD_BY_TIER = 3;
/** The first payload version told which sessions a push lowered (`SessionsResponse.lowered`). */
export const PAYLOAD_TOLD_LOWERED = 6;
/** Header carrying the payload version on every push request (also in the bodies). */
export const PAYLOAD_VERSION_HEADER = 'agentdash-team-payload';

export const shareTiers = ['summary', 'metadata', 'full'] as const;
export type ShareTier = (typeof shareTiers)[number];
export const isShareTier = (value: string): value is ShareTier => (shareTiers as readonly string[]).includes(value);
/** `a` holds everything `b` holds. */
export const tierCovers = (a: ShareTier, b: ShareTier): boolean => shareTiers.indexOf(a) >= shareTiers.indexOf(b);
/** The lower of two tiers. */
export const lowerTier = (a: ShareTier, b: ShareTier): ShareTier => (tierCovers(a, b) ? b : a);

/** Largest JSON push body (after gzip is undone): a 413 above. A session larger than a request's share goes alone. */
export const MAX_PUSH_BODY_BYTES = 64 * 1024 * 1024;
/** Largest transcript chunk as sent (gzip bytes): a 413 above. */
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** Sessions per `push/sessions` request, and digests per manifest request. */
export const MAX_SESSIONS_PER_REQUEST = 200;
export const MAX_MANIFEST_ENTRIES = 50_000;
/** Text a chunk holds before gzip: whole lines up to about this many bytes (one longer line is a chunk alone). */
export const CHUNK_TEXT_BYTES = 1024 * 1024;
/**
 * Most text one chunk may hold once gunzipped (one very long line): a chunk past it is refused when sent, and is never
 * inflated further when read (a few MiB of gzip can inflate to GiBs).
 */
export const MAX_CHUNK_TEXT_BYTES = 64 * 1024 * 1024;
/**
 * Most text a full-tier session's files may hold in all: the team server rebuilds a session's transcripts in memory to
 * cut its search documents. A larger session goes at the metadata tier (`agentdash push` says which).
 */
export const MAX_SESSION_TEXT_BYTES = 512 * 1024 * 1024;

const hex = (n: number) => z.string().regex(new RegExp(`^[0-9a-f]{${n}}$`));
/** A session's id on the team server: HMAC-SHA-256(person salt, agent NUL session key), first 32 hex digits. */
export const Uid = hex(32);
/** SHA-256 hex of a session's canonical JSON (`digestOf`), or of a chunk's bytes as sent. */
export const Sha256 = hex(64);
const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();
const text = (max: number) => z.string().max(max);
const iso = z.string().max(40).nullable();

export const UsageWire = z.strictObject({
  responses: count,
  inputTokens: count,
  outputTokens: count,
  cacheCreationInputTokens: count,
  cacheCreation1hInputTokens: count,
  cacheReadInputTokens: count,
  reasoningOutputTokens: count,
});
export type UsageWire = z.infer<typeof UsageWire>;

/** A session's time (core's `ReportedTime`): `wallMs` null when unknown (payload 7; older ones sent 0 for it). */
export const TimeWire = z.strictObject({ wallMs: ms.nullable(), modelMs: ms, toolMs: ms, userMs: ms, idleMs: ms });

/** One API response, each once (as the local usage queries count it). */
export const ResponseWire = z.strictObject({
  tsMs: z.number().int().nullable(),
  model: text(200),
  /** The subagent that made it; null on the main thread. */
  agentId: text(200).nullable(),
  input: count,
  output: count,
  cacheCreation: count,
  cacheCreation1h: count,
  cacheRead: count,
  reasoning: count,
  /** It recorded no input (core's `ResponseUsage.inputUnrecorded`): `input` is unknown, not 0; absent from older clients. */
  inputUnrecorded: z.boolean().optional(),
  /** No record of it kept its final output count (core's `ResponseUsage.outputUnrecorded`); absent from older clients. */
  outputUnrecorded: z.boolean().optional(),
  /**
   * Which response it is: the laptop's response key (index's `responses.key`) as an HMAC with the person's salt
   * (`responseKey`), the same on each of the person's devices, so the team counts a response two sessions hold once;
   * absent from clients before payload 8.
   */
  key: hex(32).optional(),
});
export type ResponseWire = z.infer<typeof ResponseWire>;

const callStatus = z.enum(['ok', 'error', 'pending', 'unanswered']);

/** A tool call at the summary tier: what it was and how it went, never what it did. */
export const SummaryCallWire = z.strictObject({
  id: text(300),
  tool: text(300),
  canonical: text(300),
  ts: iso,
  status: callStatus,
  category: text(100).nullable(),
  severity: text(40).nullable(),
  durationMs: z.number().nonnegative().nullable(),
  exitCode: z.number().int().nullable(),
  agentId: text(200).nullable(),
});
/** Plus its one-line summary (`npm test → exit 1`) and error message, redacted. */
export const MetadataCallWire = SummaryCallWire.extend({
  summary: text(2000),
  errorMessage: text(4000).nullable(),
});
export type CallWire = z.infer<typeof SummaryCallWire> & Partial<z.infer<typeof MetadataCallWire>>;

/**
 * What a session's transcript holds of another session of the same person (a resume's or a fork's copies), counted
 * there (the index's `sessionCopies`): that session's uid, the ids of the calls copied from it (as its own `calls`
 * name them), the copied prompts (payload 9) and the copied responses.
 */
export const CopiedWire = z.strictObject({
  uid: Uid,
  sameSession: z.boolean(),
  calls: count,
  errors: count,
  expectedErrors: count,
  // payload 9
  prompts: count.optional(),
  responses: count,
  costUsd: z.number().nullable(),
  callIds: z.array(text(300)).max(5_000_000),
});
export type CopiedWire = z.infer<typeof CopiedWire>;

const summaryHeader = z.strictObject({
  totalEvents: count,
  counts: z.record(z.string().max(100), z.number()),
  toolCounts: z.record(z.string().max(300), count),
  // none when the session holds no copy (the push leaves it out then)
  copiedFrom: z.array(CopiedWire).max(10_000).optional(),
});
/**
 * A subagent of the session as the metadata tier tells it (the index's `SubagentSummary` without its prompt): its
 * `description` is the one-line summary of the call that started it, as the session's calls carry it at this tier.
 */
export const SubagentWire = z.strictObject({
  key: text(300),
  agentId: text(200).nullable(),
  parentCallId: text(300).nullable(),
  linkedBy: z.enum(['agent-id', 'prompt-match', 'unlinked']),
  description: text(2000).nullable(),
  agentType: text(300).nullable(),
  startedAt: text(100).nullable(),
  endedAt: text(100).nullable(),
  events: count,
  toolCalls: count,
  errors: count,
  expectedErrors: count,
});
export type SubagentWire = z.infer<typeof SubagentWire>;
/** A subagent as payload versions 1 and 2 sent it at every tier above summary: with its prompt, no description. */
export const OlderSubagentWire = z.object({
  ...SubagentWire.omit({ description: true }).shape,
  // unbounded as they were sent: `subagentWire` clips what it keeps, and takes only these fields
  prompt: z.string().nullable(),
  agentType: z.string().nullable(),
});
/** The full tier's subagent: with the prompt it was given (its transcript goes too). */
export const FullSubagentWire = SubagentWire.extend({ prompt: text(20_000).nullable() });
export type FullSubagentWire = z.infer<typeof FullSubagentWire>;

const metadataHeader = summaryHeader.extend({
  subagents: z.array(SubagentWire).max(10_000),
  shells: z.record(z.string().max(300), z.string().max(300)),
});
const fullHeader = metadataHeader.extend({ subagents: z.array(FullSubagentWire).max(10_000) });

/** One transcript file of a session at the full tier: its redacted text in content-addressed chunks. */
export const FileWire = z.strictObject({
  /** The file's name relative to the session's project folder (never an absolute path). */
  name: text(1000),
  role: z.enum(['main', 'subagent']),
  agentId: text(200).nullable(),
  /** Bytes of the redacted text (before gzip). */
  bytes: count,
  chunks: z.array(Sha256).max(1_000_000),
});
export type FileWire = z.infer<typeof FileWire>;

const summaryFields = {
  uid: Uid,
  /** Sha256 of the session's canonical JSON without `digest` (the server recomputes it). */
  digest: Sha256,
  agent: text(40),
  sessionId: text(300),
  /** HMAC of the project path (else folder), stable per person: groups a person's sessions without naming them. */
  projectHash: hex(32),
  startedAt: iso,
  endedAt: iso,
  durationMs: ms.nullable(),
  messages: count,
  prompts: count,
  toolCalls: count,
  errors: count,
  expectedErrors: count,
  subagents: count,
  issues: count,
  secrets: count,
  archived: z.boolean(),
  isLive: z.boolean(),
  versions: z.array(text(100)).max(1000),
  models: z.array(text(200)).max(1000),
  usage: UsageWire,
  subagentUsage: UsageWire,
  usageByModel: z.record(text(200), UsageWire),
  costUsd: z.number().nullable(),
  subagentCostUsd: z.number().nullable(),
  unpricedModels: z.array(text(200)).max(1000),
  /** Models some of whose responses recorded no input (their cost is a lower bound); absent from older clients. */
  inputUnrecordedModels: z.array(text(200)).max(1000).optional(),
  /** Models some of whose responses kept only the stream's first output count; absent from older clients. */
  outputUnrecordedModels: z.array(text(200)).max(1000).optional(),
  time: TimeWire,
  responses: z.array(ResponseWire).max(5_000_000),
};

export const SummarySession = z.strictObject({
  tier: z.literal('summary'),
  ...summaryFields,
  /**
   * Whether the laptop has a title for the session (the title stays there): the list hides a session with no title
   * and no tool call (an empty or warm-up one), on the team as on the laptop. Absent before version 6: the server
   * takes a session with a prompt for a titled one.
   */
  titled: z.boolean().optional(),
  header: summaryHeader,
  calls: z.array(SummaryCallWire).max(5_000_000),
});

const metadataFields = {
  title: text(2000).nullable(),
  titleSource: z.enum(['custom-title', 'ai-title', 'summary', 'first-prompt']).nullable(),
  projectPath: text(4000).nullable(),
  /** The project folder's name (`-home-me-app`, a Codex day folder, …), never its full path. */
  projectDir: text(1000),
  gitBranch: text(1000).nullable(),
};

export const MetadataSession = z.strictObject({
  tier: z.literal('metadata'),
  ...summaryFields,
  ...metadataFields,
  header: metadataHeader,
  calls: z.array(MetadataCallWire).max(5_000_000),
});

/** The bytes a full-tier session's transcripts hold (what `MAX_SESSION_TEXT_BYTES` bounds). */
export const sessionTextBytes = (s: { readonly files: readonly { readonly bytes: number }[] }): number =>
  s.files.reduce((n, f) => n + f.bytes, 0);

export const FullSession = z.strictObject({
  tier: z.literal('full'),
  ...summaryFields,
  ...metadataFields,
  header: fullHeader,
  calls: z.array(MetadataCallWire).max(5_000_000),
  files: z.array(FileWire).max(100_000),
});

/** One session as pushed, at its tier. */
export const PushSession = z.discriminatedUnion('tier', [SummarySession, MetadataSession, FullSession]);
export type PushSession = z.infer<typeof PushSession>;
export type SummarySession = z.infer<typeof SummarySession>;
export type MetadataSession = z.infer<typeof MetadataSession>;
export type FullSession = z.infer<typeof FullSession>;

const versioned = { version: z.number().int() };

export const DeviceInfo = z.strictObject({
  /** The pushing AgentDash's version. */
  agentdash: text(40),
  /** The laptop's hostname, as older laptops send it: accepted and dropped (nothing shows it); newer ones send none. */
  hostname: text(300).nullable().optional(),
  platform: text(40),
});

export const ManifestRequest = z.strictObject({
  ...versioned,
  device: DeviceInfo,
  /** Every session the laptop would push now, with its digest (unchanged ones cost ~90 bytes each). */
  sessions: z.array(z.strictObject({ uid: Uid, digest: Sha256 })).max(MAX_MANIFEST_ENTRIES),
});
export type ManifestRequest = z.infer<typeof ManifestRequest>;
export const ManifestResponse = z.strictObject({ want: z.array(Uid) });
export type ManifestResponse = z.infer<typeof ManifestResponse>;

export const ChunkCheckRequest = z.strictObject({ ...versioned, chunks: z.array(Sha256).max(100_000) });
export const ChunkCheckResponse = z.strictObject({ missing: z.array(Sha256) });
/** The answer to `POST /push/chunks`: how many of its chunks the server did not hold before. */
export const ChunksResponse = z.strictObject({ stored: count });

export const SessionsRequest = z.strictObject({
  ...versioned,
  sessions: z.array(PushSession).max(MAX_SESSIONS_PER_REQUEST),
});
export type SessionsRequest = z.infer<typeof SessionsRequest>;
export const SessionsResponse = z.strictObject({
  /** Sessions written (new, or a different digest). */
  stored: count,
  /**
   * Sessions whose stored digest was already this one: nothing changed. Counted here too, and not written: a copy
   * another device of the person stored went further (its end later: a home synced between two devices, this one's
   * copy lagging), kept until this one's catches up.
   */
  unchanged: count,
  /** Sessions not stored, with why: their uid is another person's (`TEAM_UID_TAKEN`); none when all were taken. */
  refused: z.array(z.strictObject({ uid: Uid, reason: text(1000) })).optional(),
  /**
   * Sessions stored at a lower tier than the server held them (what the higher tier held is gone there: a full-tier
   * session's transcripts, a metadata one's titles), with the tier they were at; none when none was. Told to
   * laptops of payload 6 and later (an older one's schema has no room for it).
   */
  lowered: z.array(z.strictObject({ uid: Uid, from: z.enum(shareTiers) })).optional(),
});
export type SessionsResponse = z.infer<typeof SessionsResponse>;

export const ForgetRequest = z.strictObject({ ...versioned, uids: z.array(Uid).max(MAX_MANIFEST_ENTRIES) });
/**
 * A forget naming each session's id as a push at `summary` would (`idsOut`): the server records it for a uid it never
 * held, so the telemetry of a session forgotten before it was pushed is dropped too.
 */
export const ForgetSessionsRequest = z.strictObject({
  ...versioned,
  sessions: z.array(z.strictObject({ uid: Uid, sessionId: text(300) })).max(MAX_MANIFEST_ENTRIES),
});
export type ForgetSessionsRequest = z.infer<typeof ForgetSessionsRequest>;
/** The uids of the request this person had forgotten on the server, now cleared. */
export const UnforgetResponse = z.strictObject({ unforgotten: z.array(Uid) });

export const WhoAmI = z.strictObject({
  version: z.number().int(),
  role: z.enum(['device', 'viewer']),
  person: text(200),
  device: text(200).nullable(),
  /** 64 hex digits; the key of the person's uid and project hashes. */
  salt: hex(64),
});
export type WhoAmI = z.infer<typeof WhoAmI>;

/** The fields each tier adds, by name: what a check for leaks looks at and what the dashboard hides. */
export const tierFields: Readonly<Record<ShareTier, readonly string[]>> = {
  summary: Object.keys(SummarySession.shape),
  metadata: Object.keys(MetadataSession.shape),
  full: Object.keys(FullSession.shape),
};
