/**
 * An agent's descriptor: what every part of AgentDash may know of an agent without its parser, and how to load the
 * rest. Each adapter folder defines one (`adapters/<agent>/agent.ts`) and `agents/registry.ts` lists them, one line
 * per agent. This module and the descriptors import nothing that names an `AgentId` (which is derived from that
 * list): the folder's homes and parser are reached through `import()`, after every static module has loaded.
 */

/** The browser-safe data of an agent: the same for the CLI's help, the index, the server and `GET /api/agents`. */
export interface AgentInfo {
  /** The id `--agent` takes; stored with every file and session. */
  readonly id: string;
  /** The name shown to people ("Claude Code"). */
  readonly label: string;
  /**
   * How the agent's CLI resumes a session: these words followed by the session id (`['claude', '--resume']`); null
   * when it cannot resume one by id. The dashboard's "Resume" button copies them.
   */
  readonly resume: readonly string[] | null;
  /** What a PATH argument may name of this agent's (help text). */
  readonly paths: string;
  /** Its default homes, with the variables that move them (help text). */
  readonly homes: string;
  /** Where its discovery looks under a folder, as a glob (the "holds no transcripts" warning). */
  readonly layout: string;
  /**
   * Whether the folder holding a session's files (its `projectDir`) is named for the session's project: Claude Code's
   * encoded working folder, Gemini CLI's and Qwen Code's project folders, Aider's repository. A project filter by
   * name matches that folder's name only where it is. Codex's `sessions`, Copilot's `session-state` and OpenCode's
   * data folder hold every project's sessions: `--project sessions` must not select every Codex session.
   */
  readonly projectFolder: boolean;
  /**
   * Whether a session's id holds a name of the person's (Aider's is `aider-` and its repository folder's name; its
   * call ids start with it): below the metadata tier, a push sends them as salted hashes. Others' ids are opaque.
   */
  readonly namedIds?: boolean;
  /**
   * Whether its transcripts are in the person's own folders (Aider's repositories), not in folders of the agent's
   * own (`~/.claude`, `~/.codex`, …), which AgentDash never writes into (`export -o` refuses them).
   */
  readonly inPersonsFolders?: boolean;
  /**
   * Whether its usage limits are 5-hour blocks, each from the hour of its first request (Claude Code's subscription):
   * `usage blocks`, the status line and the Usage page's blocks are made of its responses, one account's each.
   */
  readonly billingBlocks?: boolean;
  /** The badge's text colour on the dark and on the light theme (at least 4.5 : 1 on its tinted chip). */
  readonly badge: { readonly dark: `#${string}`; readonly light: `#${string}` };
}

/**
 * What a descriptor's loader gives, as far as the descriptor may say: its type cannot name the `AgentHomes` or the
 * `AgentAdapter` it is, whose types are built on `AgentId`, itself derived from the descriptors. Each folder's
 * `defineHomes` and `defineAdapter` check those types; `agents/homes.ts` and `agents/adapters.ts` check that each
 * loader gives its own agent's.
 */
export interface Loaded {
  readonly id: string;
}

/**
 * An agent's data and its two loaders: `loadHomes` the folder's `homes.ts` (default homes and `recognizes`, light: a
 * warm command reads them), `loadAdapter` its `adapter.ts` (the parser).
 */
export interface AgentDescriptor extends AgentInfo {
  loadHomes(): Promise<Loaded>;
  loadAdapter(): Promise<Loaded>;
}

/** A loaded homes or adapter, checked to be this agent's (a loader naming another's is a programming error). */
export function ownedBy<T extends Loaded>(agent: AgentInfo, loaded: Loaded): T {
  if (loaded.id !== agent.id) throw new Error(`agent registry: ${agent.id}'s descriptor loads ${loaded.id}'s`);
  return loaded as T;
}

/** Declare an agent's descriptor with its literal types kept (the identity). */
export function defineAgent<const D extends AgentDescriptor>(descriptor: D): D {
  return descriptor;
}
