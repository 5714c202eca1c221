/**
 * Query strings checked by zod schemas through Hono's validator: one rule per kind of parameter, and one answer for
 * a bad one, a 400 `{ success: false, error: "<name> <what is wrong>", code: "BAD_QUERY" }` (the app's error
 * envelope, `app.ts`).
 * @module
 */

import { calendarTimeMs, calendarTimeOf, dayBoundMs } from '@agentdash/core/present';
import { zValidator } from '@hono/zod-validator';
import { z } from 'zod';
import { HttpError } from '../http-error.js';

/**
 * A parameter as the query gives it: the first when it is repeated (as `c.req.query(name)` reads it), and an empty
 * one is no parameter.
 */
function param<T extends z.ZodType>(inner: T) {
  return z.preprocess((raw) => {
    const one = Array.isArray(raw) ? raw[0] : raw;
    return one === '' ? undefined : one;
  }, inner.optional());
}

/** The most characters of free text a query takes. */
const TEXT_CHARS = 500;

/**
 * Free text (a filter, a search): NUL stripped (SQLite and FTS5 stop or fail at it), blank as none, at most 500
 * characters, a longer text cut after its last whole word (a word cut in two matches nothing it meant).
 */
export const text = param(z.string()).transform((raw) => {
  const clean = raw?.replaceAll('\0', '');
  if (clean === undefined || clean.trim() === '') return undefined;
  if (clean.length <= TEXT_CHARS) return clean;
  const cut = clean.slice(0, TEXT_CHARS + 1);
  const space = cut.search(/\s\S*$/);
  return space > 0 ? cut.slice(0, space) : clean.slice(0, TEXT_CHARS);
});

/** A file's path, whole (one cut short is another path): at most 4096 characters, no NUL. */
export const path = param(
  z
    .string()
    .max(4096, 'must be at most 4096 characters')
    .refine((raw) => !raw.includes('\0'), 'must not hold a NUL character'),
);

/**
 * A non-negative integer, `fallback` when absent, from `min` to `max` (one outside is moved to the nearer end, not
 * refused: a limit of 0 on a route whose index reads 0 as "no limit" would otherwise pass every maximum).
 */
export function int(fallback: number, max: number, min = 0) {
  return param(z.string().regex(/^\d+$/, 'must be a non-negative integer')).transform((raw) =>
    raw === undefined ? fallback : Math.max(min, Math.min(Number(raw), max)),
  );
}

/** A non-negative integer, undefined when absent, at least `min` (a smaller one is moved up to it). */
export function intAtLeast(min: number) {
  return param(z.string().regex(/^\d+$/, 'must be a non-negative integer')).transform((raw) =>
    raw === undefined ? undefined : Math.max(min, Number(raw)),
  );
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day (`2026-01-31`, whole in the request's `tz`) or a time (`2026-01-31T10:00Z`, an offset, without one the
 * server's zone), as the CLI reads `--since` (core's `calendarTimeOf`): one the calendar has (`Date.parse` reads
 * 2025-02-30 as March 2, `1` as 2001).
 */
export const date = param(
  z.string().refine((raw) => {
    if (DAY.test(raw)) return dayBoundMs(raw, false, 'UTC') !== undefined;
    const t = calendarTimeOf(raw);
    return typeof t === 'object' && calendarTimeMs(t) !== undefined;
  }, 'must be a day (2026-01-31) or an ISO time (2026-01-31T10:00Z)'),
).transform((raw) => {
  // a time as ISO UTC, as every reader of the value parses it; a day as written (a whole day in `tz`: `wholeDays`)
  if (raw === undefined || DAY.test(raw)) return raw;
  const t = calendarTimeOf(raw);
  const ms = typeof t === 'object' ? calendarTimeMs(t) : undefined;
  return ms === undefined ? raw : new Date(ms).toISOString();
});

/** One of `values`. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return param(z.enum(values, { error: `must be one of ${values.join(', ')}` }));
}

/** `true`/`1` is true; `false`/`0` or absent is no filter. */
export const flag = param(z.enum(['true', '1', 'false', '0'], { error: 'must be true, false, 1 or 0' })).transform(
  (raw) => (raw === 'true' || raw === '1' ? true : undefined),
);

/** The validator of a route's query: a bad parameter is a 400 naming it (the first one found). */
export function query<T extends z.ZodType>(schema: T) {
  return zValidator('query', schema, (result) => {
    if (result.success) return;
    const issue = result.error.issues[0];
    const name = issue?.path.join('.') || 'query';
    throw new HttpError(400, `${name} ${issue?.message ?? 'is not valid'}`, 'BAD_QUERY');
  });
}
