/**
 * When each device was last heard from, for `team list`: `last_push_at`, its last push the server accepted (a round
 * that found nothing new included: `push --watch` on a laptop where nothing changed is a working laptop, not a stale
 * one), and `last_seen_at` (schema version 28), its last accepted push or telemetry request (a machine that only sends
 * its agents' OTLP export is alive, though it never pushed).
 */
import type { Sql } from './db.js';

/** Shipped: never edit this text, add a migration. */
export const DEVICE_SEEN_MIGRATIONS = [
  {
    version: 28,
    name: "each device's last accepted push or telemetry request",
    sql: `
      alter table devices add column last_seen_at timestamptz;
      update devices set last_seen_at = last_push_at;`,
  },
];

/** How often a device's row is written at most for its pushes and its telemetry: an exporter sends every few seconds. */
export const SEEN_EVERY_MS = 60_000;

/**
 * SQL: the device's time in `column` is older than `SEEN_EVERY_MS` (or it has none): its row is written again. So a
 * `push --watch` round or an exporter's request writes the device's row once a minute at most, and an unchanged push
 * right after another changes no row.
 */
export const seenBefore = (column: 'last_push_at' | 'last_seen_at'): string =>
  `(${column} is null or ${column} < now() - interval '${SEEN_EVERY_MS} milliseconds')`;

/** The device pushed now (a batch of sessions the server accepted, or a manifest: `manifestWant`), to the minute. */
export async function markPushed(sql: Sql, deviceId: number): Promise<void> {
  await sql`update devices set last_push_at = now(), last_seen_at = now()
    where id = ${deviceId} and ${sql.unsafe(seenBefore('last_push_at'))}`;
}

/**
 * Marks a device seen for its telemetry, to the minute: its row is asked for at most once a `SEEN_EVERY_MS` from this
 * process, and written only when the time it holds is older (another team server on the database wrote it).
 */
export function telemetrySeen(sql: Sql, everyMs = SEEN_EVERY_MS): (deviceId: number) => Promise<void> {
  const asked = new Map<number, number>();
  return async (deviceId) => {
    const now = Date.now();
    if (now - (asked.get(deviceId) ?? Number.NEGATIVE_INFINITY) < everyMs) return;
    asked.set(deviceId, now);
    await sql`update devices set last_seen_at = now()
      where id = ${deviceId} and ${sql.unsafe(seenBefore('last_seen_at'))}`;
  };
}

/** A device of `team list` as one phrase: revoked, when it last pushed, else when its telemetry was last seen. */
export function deviceState(d: {
  readonly revokedAt: string | null;
  readonly lastPushAt: string | null;
  readonly lastSeenAt: string | null;
}): string {
  if (d.revokedAt) return 'revoked';
  if (d.lastPushAt) return `last push ${d.lastPushAt}`;
  return d.lastSeenAt ? `telemetry only, last seen ${d.lastSeenAt}` : 'never pushed';
}
