/** The `--json` output of `push` and `team` (team mode, docs/team.md), part of the contract in json-types.ts. */
import type { PushReport, TeamListing } from '@agentdash/team';

/** `push --json`: what one push sent (with `--watch`, one document per push that stored something). */
export type PushJson = { readonly url: string } & PushReport;

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
