/**
 * `agentdash team erase NAME` (and `team revoke NAME --erase`): everything the team server holds of a person or of
 * one device removed from PostgreSQL, in one transaction, for someone who leaves the team or asks for their data to
 * go. A person: their row (name, salt), devices, pushed sessions with every row under them, telemetry, and the
 * transcript chunks no one else's session refers to. A device: the sessions it pushed last, the telemetry it sent,
 * then the device itself (the person and their other devices stay). A viewer: the viewer's row.
 */
import { TeamUnknownNameError } from '../errors.js';
import { notifyChanged } from '../server/team-live.js';
import { dropUnreferencedChunks } from './chunk-gc.js';
import type { Sql, TxSql } from './db.js';

export interface Erased {
  readonly kind: 'person' | 'device' | 'viewer';
  readonly name: string;
  /** Pushed sessions removed (with their calls, responses, files and search words). */
  readonly sessions: number;
  /** Telemetry records removed (events, spans, metric points, unmodelled records). */
  readonly telemetry: number;
  /** Transcript chunks removed (those no other session refers to). */
  readonly chunks: number;
  /** Device or viewer tokens that stopped working. */
  readonly tokens: number;
  /** The sessions' uids, for the dashboards' live updates. */
  readonly uids: readonly string[];
}

const TELEMETRY = ['otel_events', 'otel_spans', 'otel_metrics', 'otel_unknown'] as const;

async function eraseTelemetry(tx: TxSql, column: 'person_id' | 'device_id', id: number): Promise<number> {
  let n = 0;
  for (const table of TELEMETRY)
    n += (await tx`delete from ${tx(table)} where ${tx(column)} = ${id} returning 1`).length;
  return n;
}

/**
 * Erases `name`: `PERSON/DEVICE`, a viewer, or a person (with all their devices); then tells the open dashboards
 * (every team server on the database) that the sessions are gone.
 */
export async function erase(sql: Sql, name: string): Promise<Erased> {
  const erased = await eraseRows(sql, name);
  await notifyChanged(sql, erased.uids).catch(() => {});
  return erased;
}

async function eraseRows(sql: Sql, name: string): Promise<Erased> {
  return await sql.begin(async (tx) => {
    const slash = name.indexOf('/');
    if (slash !== -1) {
      const [device] = await tx<{ id: number; revoked: boolean }[]>`
        select d.id::int, d.revoked_at is not null as revoked from devices d join people p on p.id = d.person_id
        where p.name = ${name.slice(0, slash)} and d.name = ${name.slice(slash + 1)} for update of d`;
      if (!device) throw new TeamUnknownNameError(`no device ${name.slice(slash + 1)} of ${name.slice(0, slash)}`);
      const held = await tx<{ sha256: string }[]>`select distinct f.sha256 from file_chunks f
        join sessions s on s.person_id = f.person_id and s.uid = f.uid where s.device_id = ${device.id}`;
      const gone = await tx<{ uid: string }[]>`delete from sessions where device_id = ${device.id} returning uid`;
      const telemetry = await eraseTelemetry(tx, 'device_id', device.id);
      await tx`delete from devices where id = ${device.id}`;
      const chunks = await dropUnreferencedChunks(
        tx,
        held.map((r) => r.sha256),
      );
      const uids = gone.map((r) => r.uid);
      return { kind: 'device', name, sessions: uids.length, telemetry, chunks, tokens: device.revoked ? 0 : 1, uids };
    }
    const viewers = await tx`delete from viewers where name = ${name} returning revoked_at`;
    if (viewers.length > 0) {
      const tokens = viewers.filter((v) => v.revoked_at === null).length;
      return { kind: 'viewer', name, sessions: 0, telemetry: 0, chunks: 0, tokens, uids: [] };
    }
    const [person] = await tx<{ id: number }[]>`select id::int from people where name = ${name} for update`;
    if (!person) throw new TeamUnknownNameError(`no person, viewer or device named ${name}`);
    // the chunks of their sessions, and those they uploaded that no session came to refer to
    const held = await tx<{ sha256: string }[]>`
      select sha256 from file_chunks where person_id = ${person.id}
      union select sha256 from chunks where uploaded_by = ${person.id}`;
    const [active] = await tx<{ n: number }[]>`
      select count(*)::int as n from devices where person_id = ${person.id} and revoked_at is null`;
    const telemetry = await eraseTelemetry(tx, 'person_id', person.id);
    const gone = await tx<{ uid: string }[]>`delete from sessions where person_id = ${person.id} returning uid`;
    // devices go with the person (on delete cascade)
    await tx`delete from people where id = ${person.id}`;
    const chunks = await dropUnreferencedChunks(
      tx,
      held.map((r) => r.sha256),
    );
    const uids = gone.map((r) => r.uid);
    return { kind: 'person', name, sessions: uids.length, telemetry, chunks, tokens: active?.n ?? 0, uids };
  });
}
