/** The `--json` output of `push` and `team` (team mode, docs/team.md), part of the contract in json-types.ts. */
import type { PushReport, ShareTier, TeamListing } from '@agentdash/team';

/** `push --json`: what one push sent (with `--watch`, one document per push that stored something). */
export type PushJson = { readonly url: string } & PushReport;

/**
 * `push --dry-run --json`: what a push would send, built as it builds it, sent nowhere (the server is asked only who
 * the token is). The counts of `PushJson` that need no answer from the server, and the sizes by project and tier.
 */
export interface PushDryRunJson
  extends Pick<
    PushReport,
    'person' | 'device' | 'sessions' | 'forgotten' | 'tiers' | 'lowered' | 'skipped' | 'unmatchedRules'
  > {
  readonly url: string;
  readonly dryRun: true;
  /** The sessions' payloads as JSON, in bytes (before the server says which it already holds). */
  readonly payloadBytes: number;
  /** The full tier's transcripts, in bytes as on disk (sent gzip-compressed, in chunks the server may already hold). */
  readonly transcriptBytes: number;
  readonly projects: readonly PushDryRunProjectJson[];
}

/** The sessions of one project at one tier, chosen by one rule (a project's too-large sessions go at metadata). */
export interface PushDryRunProjectJson {
  /** The project's path (its folder's name when the sessions name none): never sent at the summary tier. */
  readonly project: string;
  readonly tier: ShareTier;
  /** The `--share-project` rule that chose the tier; null for the default (`--share`). */
  readonly rule: string | null;
  readonly sessions: number;
  readonly payloadBytes: number;
  readonly transcriptBytes: number;
}

/** `push --forget SESSION --json` (later pushes from this machine leave the session out). */
export interface PushForgetJson {
  readonly session: string;
  /** Sessions the team server removed (0: it did not hold this one). */
  readonly forgotten: number;
}

/** `push --unforget SESSION --json`: later pushes send the session again. */
export interface PushUnforgetJson {
  readonly session: string;
  /** 1 when it was forgotten here (this laptop's list) or on the team server (its record), 0 when neither. */
  readonly unforgotten: number;
}

/** `agentdash team add-person NAME --json`. */
export interface TeamPersonJson {
  readonly person: string;
}

/** `agentdash team add-device PERSON DEVICE --json`: the push token, shown this once (only its hash is stored). */
export interface TeamDeviceJson {
  readonly person: string;
  readonly device: string;
  readonly token: string;
  /** The tier its telemetry sent straight to the team server is stored at (`--share`, default summary). */
  readonly share: 'summary' | 'metadata' | 'full';
}

/** `agentdash team add-viewer NAME --json`: the read-only token, shown this once. */
export interface TeamViewerJson {
  readonly viewer: string;
  readonly token: string;
}

/** `agentdash team revoke NAME --json`. */
export interface TeamRevokeJson {
  readonly kind: 'device' | 'viewer' | 'person';
  readonly name: string;
  /** Tokens that stopped working (a person's: each of their devices). */
  readonly tokens: number;
}

/** `agentdash team erase NAME --json` (or `team revoke NAME --erase --json`): what was removed from PostgreSQL. */
export interface TeamEraseJson {
  readonly kind: 'device' | 'viewer' | 'person';
  readonly name: string;
  readonly sessions: number;
  readonly telemetry: number;
  readonly chunks: number;
  /** Tokens that stopped working (0 for one revoked before). */
  readonly tokens: number;
}

/** `agentdash team list --json`: everyone, never a token or its hash. */
export type TeamListJson = TeamListing;
