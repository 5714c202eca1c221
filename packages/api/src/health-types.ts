/**
 * The server's own state: `GET /api/health` (the index build's progress, the mode, what the dashboard must say of
 * the folders served) and `GET /api/agents`.
 * @module
 */
import type { AgentId } from '@agentdash/core/model';

/** The first index build's progress (`GET /api/health` and the `index-progress` server-sent event). */
export interface IndexStatus {
  /** 'indexing' until the first refresh after start is over; later live refreshes do not go back to it. */
  readonly state: 'indexing' | 'ready';
  readonly filesDone: number;
  /** 0 while the files are still being discovered. */
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** When the first refresh started (ISO). */
  readonly startedAt: string;
  /** When it ended; null while indexing. */
  readonly finishedAt: string | null;
  /**
   * Why it failed, or why the last live refresh after it did (the server keeps serving what the index holds: a
   * dashboard says so); null once a refresh works again, and otherwise.
   */
  readonly error: string | null;
  /**
   * True while another AgentDash process builds this index (an `agentdash index --rebuild`): `state` is 'indexing'
   * with that build's file counts, and what pages show is what it committed so far. Absent otherwise.
   */
  readonly elsewhere?: true;
}

/** `GET /api/agents`: every agent AgentDash reads, in registry order, as its adapter declares it. */
export interface AgentsResponse {
  readonly agents: readonly AgentInfo[];
}

export interface AgentInfo {
  readonly id: AgentId;
  /** The name shown to people ("Claude Code"). */
  readonly label: string;
  /** The words that resume a session when followed by its id (`["claude", "--resume"]`); null when it cannot. */
  readonly resume: readonly string[] | null;
  /** Its default homes, with the variables that move them (`"$CODEX_HOME or ~/.codex"`). */
  readonly homes: string;
  /** The badge's text colour on the dark and on the light theme (`#rrggbb`). */
  readonly badge: { readonly dark: string; readonly light: string };
  /** Whether its usage limits are 5-hour blocks (Claude Code's subscription): the Usage page's blocks are its own. */
  readonly billingBlocks: boolean;
}

export interface HealthResponse {
  readonly success: true;
  readonly paths: number;
  readonly index: IndexStatus;
  /** `local`: one machine's transcripts; `team`: sessions pushed by a team's machines (`agentdash serve --team`). */
  readonly mode?: 'local' | 'team';
  /** On a team server: the sharing tiers its sessions were pushed at. */
  readonly tiers?: readonly ('summary' | 'metadata' | 'full')[];
  /**
   * `serve --redact` (screen sharing): every secret in every answer is redacted, prompts, replies and tool
   * inputs and outputs included; the dashboard says so. Identifiers (titles, paths, branches) are always redacted.
   */
  readonly redact: boolean;
  /**
   * The sessions shown are the sample sessions bundled with AgentDash (no agent home holds a transcript yet): the
   * dashboard says so, and how to point it at the user's own.
   */
  readonly samples: boolean;
  /**
   * Folders named to `serve` that hold no agent's transcript and are no agent's home (say ~/Downloads): each with the
   * sentence the terminal warns with, for the dashboard to say it too. Absent until looked at, after the first index
   * build (and on a team server); empty when every folder holds some.
   */
  readonly noTranscripts?: readonly FolderWithoutTranscripts[];
}

/** A folder named that holds no transcript, and what the terminal said of it (`HealthResponse.noTranscripts`). */
export interface FolderWithoutTranscripts {
  readonly path: string;
  /** What the terminal warned: `<path> holds no Claude Code, Codex, … transcripts (looked for …)`. */
  readonly message: string;
}
