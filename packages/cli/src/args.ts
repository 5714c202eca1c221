import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type AgentId, agentIds, isAgentId } from '@agentdash/core/base';
import { type CalendarTime, calendarTimeMs, calendarTimeOf, localDayBoundMs } from '@agentdash/core/present';
import { UsageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes. */
const commonOptions = {
  json: { type: 'boolean' },
  db: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  'no-progress': { type: 'boolean' },
  prices: { type: 'string' },
  'no-archive': { type: 'boolean' },
} as const satisfies OptionSpec;

/** `--agent`, for the commands that choose sessions by it (another refuses it: it would be ignored). */
export const agentOption = { agent: { type: 'string' } } as const satisfies OptionSpec;

/** Filters shared by sessions and stats. */
export const filterOptions = {
  ...agentOption,
  project: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  model: { type: 'string' },
  version: { type: 'string' },
  errors: { type: 'boolean' },
  limit: { type: 'string' },
} as const satisfies OptionSpec;

/** The filters of a command that counts every session they choose (`stats`): no `--limit`. */
export const { limit: _limit, ...wholeFilterOptions } = filterOptions;

export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** Strict parse: unknown options and missing values are usage errors. */
export function parse(argv: readonly string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: [...argv],
      options: { ...commonOptions, ...options },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    // An option of one value given twice would keep the last silently (`--project a --project b` chose b's sessions
    // only): said instead, unless both say the same.
    const given = new Map<string, string>();
    const all: OptionSpec = { ...commonOptions, ...options };
    for (const token of tokens) {
      if (token.kind !== 'option' || token.value === undefined || all[token.name]?.multiple === true) continue;
      const earlier = given.get(token.name);
      if (earlier !== undefined && earlier !== token.value) {
        throw new UsageError(`--${token.name} given twice (${earlier}, ${token.value}): give it once`);
      }
      given.set(token.name, token.value);
    }
    // an empty value (`--db ''`, an unset shell variable) names nothing: said as a missing one is
    for (const [name, value] of Object.entries(values)) {
      if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${name} needs a value`);
    }
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = parseErrorMessage(error, { ...commonOptions, ...options });
    // A Claude Code project folder's name starts with "-" (`-home-user-proj`): read as options, it was a puzzle
    // ("unknown option -o"); said as what it likely is, and how to write it.
    const flags = argv.indexOf('--') < 0 ? argv : argv.slice(0, argv.indexOf('--'));
    const unknown = (error as { code?: unknown } | null)?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    const folder = unknown
      ? flags.find((arg) => /^-[A-Za-z][^=\s]*[-/]/.test(arg) && !arg.startsWith('--'))
      : undefined;
    throw new UsageError(
      folder === undefined
        ? message
        : `${message}: ${folder} is read as options; a path or session reference that starts with "-" goes after -- (… -- ${folder}), or write a session as <id>@<project folder>`,
    );
  }
}

/**
 * Node's `parseArgs` errors in the words of the other usage errors: its own messages speak of "ambiguous"
 * arguments (a value starting with `-`) and of placing positionals after `--`. Another error keeps its first line.
 */
function parseErrorMessage(error: unknown, options: OptionSpec): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const code = (error as { code?: unknown } | null)?.code;
  // `'--limit'`, `'--limit <value>'`, or with a short alias `'-f, --format <value>'`: the long name is the one named
  const named = /'(?:-\w, )?(-{1,2}[^'\s,]+)/.exec(message)?.[1];
  if (named === undefined) return message;
  // a short alias alone (`-f`) by its long name, which `=VALUE` can follow
  const long = /^-\w$/.test(named)
    ? Object.entries(options).find(([, spec]) => spec.short === named.slice(1))?.[0]
    : undefined;
  const option = long === undefined ? named : `--${long}`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option} (--help lists the options)`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return `${option} takes no value`;
    if (message.includes('ambiguous'))
      return `${option} needs a value; one that starts with "-" is written ${option}=VALUE`;
    return `${option} needs a value`;
  }
  return message;
}

export function str(values: Parsed['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
/** `--agent claude|codex|gemini` as a filter field (nothing when absent). */
export function agentArg(values: Parsed['values']): { readonly agent?: AgentId } {
  const raw = str(values, 'agent');
  if (raw === undefined) return {};
  if (!isAgentId(raw)) throw new UsageError(`--agent must be one of ${agentIds.join(', ')}, got "${raw}"`);
  return { agent: raw };
}

export function flag(values: Parsed['values'], name: string): boolean {
  return values[name] === true;
}

/** A positive integer option; a value above `max` is clamped to it (a huge `--limit` means "no limit"). */
export function positiveInt(
  values: Parsed['values'],
  name: string,
  max: number = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0)
    throw new UsageError(`--${name} must be a positive integer, got "${raw}"`);
  return Math.min(Number(raw), max);
}

/**
 * A port option: 1–65535, or with `free` also 0, which picks a free port when listening (`serve --port 0`); `fallback`
 * when absent.
 */
export function portArg(values: Parsed['values'], name: string, fallback: number, free: boolean): number {
  const raw = str(values, name);
  if (raw === undefined) return fallback;
  const port = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (port === 0 && !free) throw new UsageError(`--${name} 0 picks a port only when a server listens: name one`);
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(`--${name} must be a port, 1 to 65535${free ? ' (0 picks a free one)' : ''}; got "${raw}"`);
  return port;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A date or date-time as the CLI takes it (core's `calendarTimeOf`): undefined when `raw` is not of that shape; a
 * usage error when it names a day or time that does not exist (2026-02-30, 2026-13-45, 25:00).
 */
function calendarTime(raw: string, name: string): CalendarTime | undefined {
  const t = calendarTimeOf(raw);
  if (t === 'not-in-calendar') {
    throw new UsageError(`--${name} must be a real date or time: there is no ${raw.trim()} in the calendar`);
  }
  return t;
}

/** The earliest time a JavaScript `Date` holds (100,000,000 days before 1970). */
const EARLIEST_MS = -8.64e15;

/**
 * A day `2026-01-31` or `20260131` in the local time zone: its start, or with `end` its last millisecond; undefined
 * when `raw` is not a day alone. An impossible day (2026-02-30) is a usage error.
 */
export function localDayMs(raw: string, end: boolean, name = 'since'): number | undefined {
  const t = calendarTime(raw, name);
  if (t === undefined || t.time !== undefined) return undefined;
  return localDayBoundMs(t.year, t.month, t.day, end);
}

/**
 * `--since 7d`, `--since 12h`, `--since 2026-01-31`, `--since 2026-01-31T10:00Z` → ISO text: the one parser of every
 * command's --since and --until. A day alone is a local day, as the commands show times: its start, and for --until
 * its last millisecond (`--until 2026-01-31` takes in the 31st, in every command). A date that is not in the calendar
 * (2026-02-30) is a usage error, never rolled into the next month.
 */
export function timeArg(values: Parsed['values'], name: string, now: number): string | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  // `7d` or `7D`: a unit in either case, but `M` (minutes to the CLI, months to many a reader) is refused
  const rel = /^(\d+(?:\.\d+)?)\s*([smhdw]|[SHDW])$/.exec(raw.trim());
  if (rel) {
    const at = now - Number(rel[1]) * (UNITS[(rel[2] ?? 'd').toLowerCase()] ?? 0);
    // a JavaScript date reaches 100 million days back from 1970 at most
    if (!(at >= EARLIEST_MS)) throw new UsageError(`--${name} ${raw}: an age reaching back before any date`);
    return new Date(at).toISOString();
  }
  const t = calendarTime(raw, name);
  if (t !== undefined && t.time === undefined) {
    return new Date(localDayMs(raw, name === 'until', name) ?? Number.NaN).toISOString();
  }
  const ms = t === undefined ? undefined : calendarTimeMs(t);
  if (ms === undefined) {
    throw new UsageError(`--${name} must be a date (2026-01-31, ISO time) or an age like 7d, 12h, 30m; got "${raw}"`);
  }
  return new Date(ms).toISOString();
}

/**
 * `--since` and `--until` of a command (`timeArg`), refused when the window ends before it begins: written so, they
 * were almost surely swapped, and the answer would be empty with no word of why.
 */
export function timeWindow(values: Parsed['values'], now: number): { since?: string; until?: string } {
  const since = timeArg(values, 'since', now);
  const until = timeArg(values, 'until', now);
  if (since !== undefined && until !== undefined && Date.parse(since) > Date.parse(until)) {
    throw new UsageError(
      `--since ${str(values, 'since')} is after --until ${str(values, 'until')}: nothing can be in that window`,
    );
  }
  return { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
}
