/** The `--json` output of `push` and `team` (team mode, docs/team.md), part of the contract in json-types.ts. */

/** `push --json`: what one push sent (with `--watch`, one document per push that stored something). */
export interface PushJson {
  readonly url: string;
  readonly person: string;
  readonly device: string | null;
  /** Sessions of the local index the push covered. */
  readonly sessions: number;
  /** Sessions left out because the protocol cannot carry them (a field past its cap), with the reason. */
  readonly skipped: readonly { readonly session: string; readonly reason: string }[];
  /** Sessions per sharing tier. */
  readonly tiers: Readonly<Record<'summary' | 'metadata' | 'full', number>>;
  /** Sessions the server lacked or held differently (sent), and of those how many it stored. */
  readonly sent: number;
  readonly stored: number;
  /** Sessions the server already held as they are. */
  readonly unchanged: number;
  /** Transcript chunks of full-tier sessions sent, and those the server lacked and got. */
  readonly chunks: number;
  readonly chunksUploaded: number;
  readonly bytesSent: number;
  readonly requests: number;
}

/** `push --forget SESSION --json`. */
export interface PushForgetJson {
  readonly session: string;
  /** Sessions the team server removed (0: it did not hold this one). */
  readonly forgotten: number;
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
export interface TeamListJson {
  readonly people: readonly {
    readonly name: string;
    readonly createdAt: string;
    readonly revokedAt: string | null;
    readonly sessions: number;
    readonly devices: readonly {
      readonly name: string;
      readonly createdAt: string;
      readonly revokedAt: string | null;
      readonly lastPushAt: string | null;
      readonly agentdash: string | null;
      readonly sessions: number;
    }[];
  }[];
  readonly viewers: readonly { readonly name: string; readonly createdAt: string; readonly revokedAt: string | null }[];
}
