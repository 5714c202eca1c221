import { agentIds, agentInfos } from '@agentdash/core/base';
import { redactIdentifiers } from '@agentdash/core/secrets';
import type { SessionFilter } from '@agentdash/index';
import { agentArg, flag, type Parsed, positiveInt, str, timeWindow } from '../args.js';
import { wrapToWidth } from '../wrap.js';

export interface CommandSpec {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  /** Help text after the usage line. */
  readonly help: string;
  readonly options: import('../args.js').OptionSpec;
  run(ctx: import('../context.js').Context, positionals: string[]): Promise<void>;
}

/**
 * Session filters from the shared options, for any paths (a bad value is a UsageError): read before the paths are
 * resolved, so that a bad option is said before anything is read or written.
 */
export function sessionFilter(values: Parsed['values'], now: number): Omit<SessionFilter, 'paths'> {
  const window = timeWindow(values, now);
  const limit = positiveInt(values, 'limit');
  const project = str(values, 'project');
  const model = str(values, 'model');
  const version = str(values, 'version');
  return {
    ...agentArg(values),
    ...(project !== undefined ? { project } : {}),
    ...window,
    ...(model !== undefined ? { model } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(flag(values, 'errors') ? { hasErrors: true } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/** The paths and the session filter a command's arguments give, after the paths' refresh. */
export async function refreshedScope(ctx: import('../context.js').Context, positionals: readonly string[]) {
  // The options first: a bad one is said before the paths are resolved (the samples, for want of a home) or read.
  const options = sessionFilter(ctx.values, ctx.io.now());
  const paths = await ctx.resolvePaths(positionals);
  await ctx.refresh(paths);
  return { paths, filter: { ...options, paths } satisfies SessionFilter };
}

/** Help of a command over PATH with the session filters: what it does, then paths, filters and common options. */
export const filteredHelp = (what: string): string => `${what}

${PATHS_HELP}

${LIMITED_FILTER_HELP}

${COMMON_HELP}`;

/** "a, b or c" */
const orList = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** The `--agent` line of the help of each command that takes it (`agentOption`). */
export const AGENT_HELP = `  --agent AGENT    only one agent's sessions: ${orList(agentIds)}`;

/** The `--project` line of every command's help. */
export const PROJECT_HELP = `  --project TEXT   sessions whose project path or folder name contains TEXT (any case);
                   when none does, the projects here are named on stderr`;

export const FILTER_HELP = `Filters:
${PROJECT_HELP}
${AGENT_HELP}
  --since WHEN     active at or after WHEN (a local day 2026-01-31, an ISO time, or an age: 30m, 12h, 7d, 2w)
  --until WHEN     started at or before WHEN (a day: through its end)
  --model TEXT     sessions that used a model containing TEXT, any case (Sonnet-4.6 finds claude-sonnet-4-6);
                   when none did, the models here are named on stderr
  --version V      sessions written by client version V
  --errors         only sessions with a tool error (expected ones aside) or a failed API request`;

/** The filters of the commands that list sessions (`sessions`, `secrets`): `FILTER_HELP` and `--limit`. */
export const LIMITED_FILTER_HELP = `${FILTER_HELP}
  --limit N        at most N sessions, the newest`;

export const COMMON_HELP = `Common options:
  --json           machine-readable output (see docs/cli-json.md)
  --db PATH        index database (default: $AGENTDASH_DB, else $XDG_DATA_HOME/agentdash/index.sqlite,
                   else ~/.local/share/agentdash/index.sqlite)
  -v, --verbose    list malformed lines with file and line
  --no-progress    no progress bar
  --prices FILE    model prices (AgentDash's JSON or LiteLLM's model_prices_and_context_window.json) over the
                   built-in table
  --no-archive     this run keeps no copy of new transcript bytes in the index (see "agentdash archive")
  -h, --help       this help`;

/** What SESSION may name (the index's resolver, `getSession`), for the commands that open one session. */
export const SESSION_HELP = `SESSION: a session id, a unique prefix of one, <id>@<project folder> or <project folder>/<id> (when two
folders hold that id; any trailing part of the folder's path; <folder>/…/<id>: a folder anywhere on it), or a
transcript file; a reference as the sessions list prints it, ellipses included.`;

/** What PATH may name and the default homes, from the agent registry (`agentInfos`), in lines of at most 116 columns. */
export const PATHS_HELP = wrapToWidth(
  `PATH: an agent's home or a folder or transcript file inside one (${agentInfos
    .map((a) => `${a.label}: ${a.paths}`)
    .join('; ')}). Default: every agent home that exists (${agentInfos
    .map((a) => a.homes)
    .join(', ')}); the bundled sample sessions when none holds a transcript.`,
  116,
);

const C1_CONTROL = /[\u007f-\u009f]/;

/**
 * JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u00XX`: `JSON.stringify` escapes only C0, and a
 * terminal acts on a C1 control (U+009B is a CSI), so a transcript's could reach it through `--json` on a terminal.
 * They occur only inside strings, so the JSON is the same value, in a pipe or a file too.
 */
export function safeJsonText(text: string): string {
  if (!C1_CONTROL.test(text)) return text;
  return text.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function writeJson(ctx: import('../context.js').Context, value: unknown): void {
  // Read from the bundled samples (no agent home here): said in the document itself, not only in a note on stderr,
  // so that a script does not take their costs for the machine's.
  const marked =
    ctx.showingSamples && typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { samples: true, ...value }
      : value;
  ctx.io.stdout.write(jsonText(marked));
}

/** What `--json` writes of a value, its last line ended. */
export function jsonText(value: unknown): string {
  // Every command's --json: identifiers (titles, paths, branches) never show a secret (docs/secrets.md).
  return `${safeJsonText(JSON.stringify(redactIdentifiers(value), null, 2))}\n`;
}

/**
 * A list asked for one item past `limit` (to tell whether `--limit` leaves some out), cut back to `limit`; `more` is
 * what the table's count line adds then (the same words for every command with `--limit`).
 */
export function cutToLimit<T>(found: T[], limit: number): { items: T[]; truncated: boolean; more: string } {
  const truncated = found.length > limit;
  return {
    items: truncated ? found.slice(0, limit) : found,
    truncated,
    more: truncated ? ` (there are more: --limit ${limit * 2} shows more)` : '',
  };
}
