/** What `agentdash push` is given, what it tells as it goes, and what it reports (push.ts). */
import type { AgentIndex, SessionFilter, SessionSummary } from '@agentdash/index';
import type { PushSession, ShareTier } from '../contract.js';
import type { Chunk } from './chunks.js';
import type { TeamClient } from './client.js';
import type { FileCache } from './file-cache.js';
import type { ForgottenSessions } from './forgotten.js';
import type { TierPolicy } from './tiers.js';

export interface PushProgress {
  readonly stage: 'digest' | 'manifest' | 'send';
  readonly done: number;
  readonly total: number;
}

export interface PushOptions {
  readonly index: AgentIndex;
  readonly client: TeamClient;
  readonly policy: TierPolicy;
  /** The pushing AgentDash: its version and platform (no hostname: nothing on the team server shows it). */
  readonly device: { readonly agentdash: string; readonly hostname?: string | null; readonly platform: string };
  readonly cache: FileCache;
  /** Sessions taken back with `push --forget`: left out (none when undefined). */
  readonly forgotten?: ForgottenSessions;
  /** Which local sessions (default: all of them). */
  readonly filter?: SessionFilter;
  readonly onProgress?: (progress: PushProgress) => void;
  /**
   * A dry run (`push --dry-run`): each session's payload is built at its tier and handed here, as it would leave this
   * machine; the server is asked only who the token is (its salt hashes the projects), nothing is sent or stored.
   */
  readonly dryRun?: (planned: PlannedSession) => void;
  /**
   * In a dry run, each full-tier transcript chunk as it would leave (its name, and its text gzip-compressed), once
   * per file read: the files are read again, not named from the cache, so that every chunk is handed here.
   */
  readonly onDryRunChunk?: (chunk: Chunk) => void;
}

/** A session as a push would send it: its payload at its tier, and the `--share-project` rule that chose the tier. */
export interface PlannedSession {
  readonly summary: SessionSummary;
  readonly tier: ShareTier;
  readonly payload: PushSession;
  /** The rule (`P=TIER`) that chose its tier; undefined for the default tier (`--share`). */
  readonly rule: string | undefined;
}

export interface PushReport {
  readonly person: string;
  readonly device: string | null;
  /** Sessions in the local index that the push covered. */
  readonly sessions: number;
  /** Sessions left out because they were forgotten on the team server (`push --forget`, until `--unforget`). */
  readonly forgotten: number;
  /**
   * Sessions read from a headless run's output (a CI job's artifact) whose transcript is indexed now: taken back from
   * the team server (what it held of them), so that it counts each session once, from the transcript, as this laptop
   * does. 0 when none was held there.
   */
  readonly superseded: number;
  /**
   * The `--share-project` rules (`P=TIER`) that named no session of this push: a typo in a rule meant to keep a
   * project at a lower tier would send it at the default tier; said, never silent.
   */
  readonly unmatchedRules: readonly string[];
  /** Sessions left out because the protocol cannot carry them (a field past its cap), with the reason. */
  readonly skipped: readonly { readonly session: string; readonly reason: string }[];
  /**
   * Full-tier sessions sent at the metadata tier because the full tier cannot carry their transcripts (a session past
   * `MAX_SESSION_TEXT_BYTES`, a line past a chunk's most), with the reason; counted in `tiers.metadata`.
   */
  readonly lowered: readonly { readonly session: string; readonly reason: string }[];
  /**
   * Sessions the team server held at a higher tier than this push sent them at, replaced (what the higher tier held
   * is gone there: transcripts, titles): another push, or `serve --push`, of the same sessions at another `--share`.
   */
  readonly replacedHigher: readonly { readonly session: string; readonly from: ShareTier; readonly to: ShareTier }[];
  /** Sessions at each tier. */
  readonly tiers: Readonly<Record<ShareTier, number>>;
  /** Sessions the server lacked (new or changed), and of those, how many it stored. */
  readonly sent: number;
  readonly stored: number;
  /** Sessions the server already held as they are. */
  readonly unchanged: number;
  /** Transcript chunks of the full-tier sessions sent, and those the server lacked and got. */
  readonly chunks: number;
  readonly chunksUploaded: number;
  readonly bytesSent: number;
  readonly requests: number;
  /** Requests sent again because the team server was busy or slow to answer (client.ts). */
  readonly retried: number;
  /** Why the last of them was put off ("the team server cannot reach its database"); absent when none was. */
  readonly retriedBecause?: string;
}
