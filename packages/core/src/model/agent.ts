/**
 * What every part of AgentDash may know of an agent without its parser: id, name, how its CLI resumes, where its
 * transcripts live (in words, for help text), the colour of its badge. Browser-safe data, so the dashboard reads the
 * same list. Shared code never switches on the ids: what differs between agents in reading their files is in their
 * adapter (`core/src/adapters/<agent>/`) and its declared capabilities.
 */
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
  /** The badge's text colour on the dark and on the light theme (at least 4.5 : 1 on its tinted chip). */
  readonly badge: { readonly dark: `#${string}`; readonly light: `#${string}` };
}

/**
 * Every agent AgentDash reads, in the order shown: the data every part may know (browser-safe). Adding an agent: its
 * folder under `core/src/adapters/`, one entry here, and the two lines the compiler then asks for: its homes in
 * `agents/registry.ts`, its adapter in `agents/adapters.ts`.
 * `claude` stays first: rows stored without an agent are Claude Code's.
 */
export const agentInfos = [
  {
    id: 'claude',
    label: 'Claude Code',
    resume: ['claude', '--resume'],
    paths: 'a Claude home, a projects folder, a project folder or .jsonl files',
    homes: '$CLAUDE_CONFIG_DIR or ~/.claude',
    layout: 'projects/*/*.jsonl',
    badge: { dark: '#f2b48f', light: '#8c4315' },
  },
  {
    id: 'codex',
    label: 'Codex',
    resume: ['codex', 'resume'],
    paths: '~/.codex, its sessions/ folder or rollout files',
    homes: '$CODEX_HOME or ~/.codex',
    layout: 'sessions/**/rollout-*.jsonl',
    badge: { dark: '#6fdcb4', light: '#08684c' },
  },
  {
    id: 'gemini',
    label: 'Gemini',
    // Gemini CLI's `--resume` takes a position in its own list or `latest`, not a session id.
    resume: null,
    paths: '~/.gemini or its chats',
    homes: '~/.gemini',
    layout: 'tmp/*/chats/*.json[l]',
    badge: { dark: '#9dc0ff', light: '#1754bb' },
  },
  {
    id: 'copilot',
    label: 'Copilot CLI',
    // `copilot --resume <id>` (its --help: "-r, --resume [<value>] … session ID"; the recorder's resume run uses it).
    resume: ['copilot', '--resume'],
    paths: '~/.copilot, its session-state/ folder, a session folder or its events.jsonl',
    homes: '$COPILOT_HOME or ~/.copilot',
    layout: 'session-state/*/events.jsonl',
    badge: { dark: '#c9b2ff', light: '#5b2fb8' },
  },
  {
    id: 'qwen',
    label: 'Qwen Code',
    // `qwen --resume <id>` (its --help: "Resume a specific session by its ID"; the recorder's resume run uses it,
    // from the session's project folder: sessions are kept per project).
    resume: ['qwen', '--resume'],
    paths: '~/.qwen, its projects/ folder, a project or chats/ folder or a session .jsonl',
    homes: '$QWEN_RUNTIME_DIR or $QWEN_HOME or ~/.qwen',
    layout: 'projects/*/chats/*.jsonl',
    badge: { dark: '#ffb38a', light: '#a3470f' },
  },
  {
    id: 'opencode',
    label: 'OpenCode',
    // `opencode --session <id>` (its --help: "-s, --session  session id to continue"; the recorder's resume run uses
    // `opencode run --session <id>`).
    resume: ['opencode', '--session'],
    paths: 'its data folder, its opencode.db or storage/ folder',
    homes: '$XDG_DATA_HOME/opencode or ~/.local/share/opencode',
    layout: 'opencode.db, storage/session/*/*.json',
    badge: { dark: '#8fd6c4', light: '#176b58' },
  },
  {
    id: 'aider',
    label: 'Aider',
    // Aider resumes a repository's last chat (`--restore-chat-history`), not a session by id.
    resume: null,
    paths: 'a repository holding .aider.chat.history.md, or a folder of such repositories',
    homes: 'the folders listed in $AGENTDASH_AIDER_PROJECTS',
    layout: '.aider.chat.history.md, */.aider.chat.history.md',
    badge: { dark: '#e6d27a', light: '#7a6300' },
  },
] as const satisfies readonly AgentInfo[];

type IdsOf<T extends readonly { readonly id: string }[]> = { readonly [K in keyof T]: T[K]['id'] };

/** The agents' ids, in the registry's order. */
export const agentIds = agentInfos.map((agent) => agent.id) as unknown as IdsOf<typeof agentInfos>;
export type AgentId = (typeof agentInfos)[number]['id'];

/** Whether a string is a known agent id (for parsing `--agent` and query strings). */
export function isAgentId(value: string): value is AgentId {
  return (agentIds as readonly string[]).includes(value);
}

/** An agent's entry in the registry. */
export function agentInfo<K extends AgentId>(id: K): Extract<(typeof agentInfos)[number], { readonly id: K }> {
  return agentInfos.find((agent) => agent.id === id) as Extract<(typeof agentInfos)[number], { readonly id: K }>;
}

/** Every agent's name, "A, B or C" (help text and messages). */
export function agentLabels(): string {
  const labels = agentInfos.map((agent) => agent.label);
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}
