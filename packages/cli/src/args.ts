import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type AgentId, agentIds, isAgentId } from '@agentdash/core/base';
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
  agent: { type: 'string' },
} as const satisfies OptionSpec;

/** Filters shared by sessions and stats. */
export const filterOptions = {
  project: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  model: { type: 'string' },
  version: { type: 'string' },
  errors: { type: 'boolean' },
  limit: { type: 'string' },
} as const satisfies OptionSpec;

export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** Strict parse: unknown options and missing values are usage errors. */
export function parse(argv: readonly string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...commonOptions, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
  }
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

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since 7d`, `--since 12h`, `--since 2026-01-31`, `--since 2026-01-31T10:00Z` → ISO text. */
export function timeArg(values: Parsed['values'], name: string, now: number): string | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  const rel = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(raw.trim());
  if (rel) return new Date(now - Number(rel[1]) * (UNITS[rel[2] ?? 'd'] ?? 0)).toISOString();
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) {
    throw new UsageError(`--${name} must be a date (2026-01-31, ISO time) or an age like 7d, 12h, 30m; got "${raw}"`);
  }
  return new Date(ms).toISOString();
}
