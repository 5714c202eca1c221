/**
 * Every route's query, as zod schemas (`query.ts` builds them and answers a bad one with a 400). Unknown parameters
 * are ignored (`wait=1`, which older clients send). Each is checked against the query `@agentdash/api`'s route table
 * gives its route: the same fields, each read as a value of the type the table says (else a compile error here).
 * @module
 */
import {
  type CallQuery,
  type CallsQuery,
  type EventsQuery,
  type FindQuery,
  type SessionCallsQuery,
  type SessionsQuery,
  STRING_LIMIT,
  type StatsPageQuery,
  type UsageQuery,
} from '@agentdash/api';
import { agentIds, isTimeZone } from '@agentdash/core';
import { errorCategories, errorSeverities } from '@agentdash/core/model';
import { dayBoundMs } from '@agentdash/core/present';
import { type CallRowStatus, sessionSorts } from '@agentdash/index';
import { z } from 'zod';
import { exportFormats } from '../export-formats.js';
import { date, flag, int, intAtLeast, oneOf, path, text } from './query.js';

export const MAX_EVENTS_PAGE = 500;
export const DEFAULT_SESSIONS_PAGE = 200;
export const MAX_SESSIONS_PAGE = 1000;
const END = Number.MAX_SAFE_INTEGER;
const callStatuses = ['ok', 'error', 'pending', 'unanswered'] as const satisfies readonly CallRowStatus[];

/** Whether `Schema` reads exactly `Query`'s fields, each as a value `Query` allows. */
type Reads<Schema extends z.ZodType, Query> = [keyof z.output<Schema>] extends [keyof Query]
  ? [keyof Query] extends [keyof z.output<Schema>]
    ? {
        [K in keyof Query & keyof z.output<Schema>]-?: NonNullable<z.output<Schema>[K]> extends NonNullable<Query[K]>
          ? true
          : false;
      }[keyof Query & keyof z.output<Schema>] extends true
      ? true
      : false
    : false
  : false;

/** The schema of a route whose query the route table types as `Query`: a mismatch asks for an argument no call has. */
const reading =
  <Query>() =>
  <Schema extends z.ZodType>(
    schema: Schema,
    ..._mismatch: Reads<Schema, Query> extends true ? [] : ['the schema does not read the route table query']
  ): Schema =>
    schema;

/**
 * A bare day (`YYYY-MM-DD`) in `since`/`until` is that whole day, in `tz` where the route takes one (else the
 * server's time zone), as the CLI reads `--since`/`--until`: from its first millisecond through its last. A time is
 * an instant and stays as given.
 */
function wholeDays<Q extends { since?: string | undefined; until?: string | undefined; tz?: string | undefined }>(
  query: Q,
): Q {
  const bound = (raw: string | undefined, end: boolean) => {
    const ms = raw === undefined ? undefined : dayBoundMs(raw, end, query.tz);
    return ms === undefined ? raw : new Date(ms).toISOString();
  };
  return { ...query, since: bound(query.since, false), until: bound(query.until, true) };
}

/** `person` and `device`: a team server's filters on every route (a local server has one person and ignores them). */
const team = { person: text, device: text };

export const sessionsQuery = reading<SessionsQuery>()(
  z
    .object({
      q: text,
      agent: oneOf(agentIds),
      project: text,
      since: date,
      until: date,
      model: text,
      version: text,
      hasErrors: flag,
      hideEmpty: flag,
      file: path,
      offset: int(0, END),
      limit: int(DEFAULT_SESSIONS_PAGE, MAX_SESSIONS_PAGE),
      sort: oneOf(sessionSorts).transform((sort) => sort ?? 'startedAt'),
      dir: oneOf(['asc', 'desc']).transform((dir) => dir ?? 'desc'),
      ...team,
    })
    .transform(wholeDays),
);

export const eventsQuery = reading<EventsQuery>()(
  z.object({
    offset: int(0, END),
    limit: int(100, MAX_EVENTS_PAGE),
    /** A subagent's key; absent: the main thread. */
    agent: text,
    /** Bookkeeping records too. */
    all: flag,
  }),
);

export const sessionCallsQuery = reading<SessionCallsQuery>()(
  z.object({
    limit: int(2000, 5000, 1),
  }),
);

export const callQuery = reading<CallQuery>()(
  z.object({
    // at least the timeline's own cut (event-dto.ts STRING_LIMIT): a call asked for shows no less than its page did
    chars: intAtLeast(STRING_LIMIT),
  }),
);

export const findQuery = reading<FindQuery>()(
  z.object({
    q: text.refine((q) => q !== undefined, 'is required'),
  }),
);

export const exportQuery = z.object({
  format: oneOf(exportFormats).transform((format) => format ?? 'html'),
  /** `0`: secrets left in (never on a shared screen); anything else: redacted. */
  redact: text.transform((raw) => raw !== '0'),
});

/** Days in the browser's time zone (an IANA name), else the server's. */
const tz = text.refine((value) => value === undefined || isTimeZone(value), 'must be an IANA time zone name');

export const statsQuery = reading<StatsPageQuery>()(
  z.object({ agent: oneOf(agentIds), project: text, since: date, until: date, tz, ...team }).transform(wholeDays),
);

export const usageQuery = reading<UsageQuery>()(
  z
    .object({
      agent: oneOf(agentIds),
      project: text,
      model: text,
      since: date,
      until: date,
      tz,
      ...team,
    })
    .transform(wholeDays),
);

export const callsQuery = reading<CallsQuery>()(
  z
    .object({
      tool: text,
      status: oneOf(callStatuses),
      category: oneOf(errorCategories),
      severity: oneOf(errorSeverities),
      agent: oneOf(agentIds),
      project: text,
      since: date,
      until: date,
      limit: int(200, 2000, 1),
      ...team,
    })
    .transform(wholeDays),
);
