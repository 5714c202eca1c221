/**
 * Live updates on the team server: a push that changes sessions (or a forget), or telemetry a device sent, is
 * announced through PostgreSQL's `NOTIFY`, and every team server process on that database (one, or several behind a
 * load balancer) `LISTEN`s and tells its open dashboards over the same SSE stream a laptop's server uses (`/api/events`): `session-updated` for
 * each session, then `sessions-changed`, so the list and an open session refresh as they do on a laptop.
 */
import type { LiveEvents, LiveListener } from '@agentdash/server';
import type { Sql } from '../pg/db.js';

/** One channel for every schema; a notification names its schema, and the others' are ignored. */
export const CHANGES_CHANNEL = 'agentdash_changes';

/** Uids per notification: a payload stays well under PostgreSQL's 8000 bytes. */
const UIDS_PER_NOTE = 100;

interface ChangeNote {
  readonly schema: string;
  readonly uids: readonly string[];
}

/** Announce that the sessions `uids` of the schema `sql` works in changed (stored anew, or forgotten). */
export async function notifyChanged(sql: Sql, uids: readonly string[]): Promise<void> {
  for (let i = 0; i < uids.length; i += UIDS_PER_NOTE) {
    const batch = uids.slice(i, i + UIDS_PER_NOTE);
    await sql`select pg_notify(${CHANGES_CHANNEL},
      json_build_object('schema', current_schema(), 'uids', ${batch as string[]}::text[])::text)`;
  }
}

/**
 * Announce telemetry a person's device sent: the telemetry sessions it named (a session known only from telemetry is
 * named so) and the person's pushed sessions they join (by `session.id`, as the telemetry routes join them), so the
 * list and an open session refresh as on a laptop whose receiver stored an export.
 */
export async function notifyTelemetry(sql: Sql, personId: number, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const pushed = await sql<{ uid: string }[]>`
    select uid from sessions where person_id = ${personId} and session_id = any(${sessionIds as string[]}::text[])
    order by uid`;
  await notifyChanged(sql, [...pushed.map((r) => r.uid), ...sessionIds]);
}

function parseNote(payload: string): ChangeNote | undefined {
  try {
    const note = JSON.parse(payload) as Partial<ChangeNote>;
    if (typeof note.schema !== 'string' || !Array.isArray(note.uids)) return undefined;
    return { schema: note.schema, uids: note.uids.filter((u): u is string => typeof u === 'string') };
  } catch {
    return undefined;
  }
}

export interface TeamLiveEvents extends LiveEvents {
  /** Resolves once this process listens (a push after it is seen); rejects when PostgreSQL refused. */
  readonly ready: Promise<void>;
  /** Changes with every change announced: the dashboard's cached answers under an older one are stale. */
  generation(): number;
}

/** The live events of the team schema `sql` works in, fed by `LISTEN agentdash_changes` on its database. */
export function createTeamLiveEvents(sql: Sql): TeamLiveEvents {
  const listeners = new Set<LiveListener>();
  const closers = new Set<() => void>();
  let generation = 0;
  let closed = false;
  const emit: LiveListener = (message) => {
    for (const l of listeners) {
      try {
        l(message);
      } catch {
        // a broken listener must not stop the others
      }
    }
  };
  let schema: string | undefined;
  const subscription = sql.listen(CHANGES_CHANNEL, (payload) => {
    const note = parseNote(payload);
    if (closed || schema === undefined || note?.schema !== schema) return;
    generation++;
    for (const sessionId of note.uids) emit({ type: 'session-updated', sessionId });
    emit({ type: 'sessions-changed' });
  });
  const ready = (async () => {
    const [row] = await sql<{ schema: string }[]>`select current_schema() as schema`;
    schema = row?.schema;
    await subscription;
  })();
  // an unhandled rejection would end the process; `ready`'s awaiter sees the error
  ready.catch(() => {});
  return {
    ready,
    generation: () => generation,
    subscribe(listener, onClose) {
      listeners.add(listener);
      if (onClose) closers.add(onClose);
      return () => {
        listeners.delete(listener);
        if (onClose) closers.delete(onClose);
      };
    },
    publish: emit,
    // nothing to re-read: pushes announce themselves
    refresh: async () => {},
    close() {
      if (closed) return;
      closed = true;
      void subscription.then((s) => s.unlisten()).catch(() => {});
      listeners.clear();
      for (const c of [...closers]) c();
      closers.clear();
    },
  };
}
