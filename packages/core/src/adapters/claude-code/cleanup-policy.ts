import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../../internal/guards.js';

/** Claude Code's default `cleanupPeriodDays`: transcripts untouched for longer are deleted at startup. */
export const DEFAULT_CLEANUP_DAYS = 30;
/** Below this many days we call the cleanup active: it deletes history a user may still want. */
const KEEPS_LONG_ENOUGH_DAYS = 365;

/** What Claude Code's settings say about deleting old transcripts. */
export interface CleanupPolicy {
  /** `<claude home>/settings.json`. */
  readonly settingsPath: string;
  /** The value set there, when it sets a number. */
  readonly cleanupPeriodDays: number | undefined;
  /** Days after which Claude Code deletes transcripts (the default when not set). */
  readonly effectiveDays: number;
  /** The cleanup deletes transcripts younger than a year (not set, or set to fewer days). */
  readonly active: boolean;
}

/**
 * Read (never write) `cleanupPeriodDays` from a Claude home's `settings.json`. A missing or unreadable file means
 * Claude Code's default.
 *
 * @example
 * readCleanupPolicy(defaultClaudeHome(process.env, os.homedir())).active // true unless set to a year or more
 */
export function readCleanupPolicy(claudeHome: string): CleanupPolicy {
  const settingsPath = join(claudeHome, 'settings.json');
  let configured: number | undefined;
  try {
    const settings: unknown = JSON.parse(readFileSync(settingsPath, 'utf8'));
    const value = isRecord(settings) ? settings.cleanupPeriodDays : undefined;
    if (typeof value === 'number' && Number.isFinite(value)) configured = value;
  } catch {
    // No settings file, or not JSON: Claude Code uses its default.
  }
  const effectiveDays = configured ?? DEFAULT_CLEANUP_DAYS;
  return { settingsPath, cleanupPeriodDays: configured, effectiveDays, active: effectiveDays < KEEPS_LONG_ENOUGH_DAYS };
}
