/**
 * People, their devices and viewers: who may push and read. Tokens are 32 random bytes shown once; only their
 * SHA-256 is stored, and every request looks its token up again, so a revoke takes effect at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ShareTier } from '../contract.js';
import { TeamBadInputError, TeamDuplicateNameError, TeamUnknownNameError } from '../errors.js';
import type { Sql, TxSql } from './db.js';

const NAME = /^[^\s/\p{Cc}][^/\p{Cc}]{0,199}$/u;

function checkName(kind: string, name: string): string {
  if (!NAME.test(name) || name !== name.trim()) {
    throw new TeamBadInputError(
      `${kind} name must be 1-200 characters, without / or control characters: ${JSON.stringify(name)}`,
    );
  }
  return name;
}

/** A new push or read token: `adt_` and 32 random bytes in base64url. */
export const newToken = (): string => `adt_${randomBytes(32).toString('base64url')}`;
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface PersonAdded {
  readonly person: string;
}
export interface DeviceAdded {
  readonly person: string;
  readonly device: string;
  /** Shown once: only its hash is stored. */
  readonly token: string;
  /** The tier telemetry the device sends straight to the team server is stored at. */
  readonly share: ShareTier;
}
export interface ViewerAdded {
  readonly viewer: string;
  readonly token: string;
}
export interface Revoked {
  readonly kind: 'device' | 'viewer' | 'person';
  readonly name: string;
  /** Tokens that stopped working now (a person's: all their devices). */
  readonly tokens: number;
}

async function nameTaken(sql: Sql | TxSql, name: string): Promise<'person' | 'viewer' | undefined> {
  const [row] = await sql<{ kind: 'person' | 'viewer' }[]>`
    select 'person' as kind from people where name = ${name}
    union all select 'viewer' from viewers where name = ${name} and revoked_at is null`;
  return row?.kind;
}

/** Adds a person with a new salt (32 random bytes) for their uids and project hashes; a revoked person comes back. */
export async function addPerson(sql: Sql, name: string): Promise<PersonAdded> {
  checkName('person', name);
  return await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended('agentdash-names', 0))`;
    const [existing] = await tx<{ revoked: boolean }[]>`
      select revoked_at is not null as revoked from people where name = ${name}`;
    if (existing && !existing.revoked) throw new TeamDuplicateNameError(`a person named ${name} exists already`);
    if (existing) {
      await tx`update people set revoked_at = null where name = ${name}`;
      return { person: name };
    }
    if ((await nameTaken(tx, name)) === 'viewer')
      throw new TeamDuplicateNameError(`a viewer named ${name} exists already`);
    await tx`insert into people (name, salt) values (${name}, ${randomBytes(32).toString('hex')})`;
    return { person: name };
  });
}

/** Adds a device of a person and returns its push token (once). A revoked device of that name gets a new token. */
export async function addDevice(
  sql: Sql,
  person: string,
  device: string,
  share: ShareTier = 'summary',
): Promise<DeviceAdded> {
  checkName('device', device);
  const token = newToken();
  return await sql.begin(async (tx) => {
    const [owner] = await tx<{ id: number; revoked: boolean }[]>`
      select id::int, revoked_at is not null as revoked from people where name = ${person} for update`;
    if (!owner) throw new TeamUnknownNameError(`no person named ${person}: add them first (agentdash team add-person)`);
    if (owner.revoked)
      throw new TeamUnknownNameError(`${person} is revoked: add them again first (agentdash team add-person)`);
    const [existing] = await tx<{ revoked: boolean }[]>`
      select revoked_at is not null as revoked from devices where person_id = ${owner.id} and name = ${device}`;
    if (existing && !existing.revoked)
      throw new TeamDuplicateNameError(`${person} has a device named ${device} already`);
    if (existing) {
      await tx`update devices set token_hash = ${tokenHash(token)}, revoked_at = null, created_at = now(),
        otel_tier = ${share} where person_id = ${owner.id} and name = ${device}`;
    } else {
      await tx`insert into devices (person_id, name, token_hash, otel_tier)
        values (${owner.id}, ${device}, ${tokenHash(token)}, ${share})`;
    }
    return { person, device, token, share };
  });
}

/** Adds a viewer (a read-only token for someone who only looks). */
export async function addViewer(sql: Sql, name: string): Promise<ViewerAdded> {
  checkName('viewer', name);
  const token = newToken();
  return await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended('agentdash-names', 0))`;
    const taken = await nameTaken(tx, name);
    if (taken) throw new TeamDuplicateNameError(`a ${taken} named ${name} exists already`);
    await tx`delete from viewers where name = ${name} and revoked_at is not null`;
    await tx`insert into viewers (name, token_hash) values (${name}, ${tokenHash(token)})`;
    return { viewer: name, token };
  });
}

/** Revokes `PERSON/DEVICE`, a viewer, or a person with all their devices. Their pushed sessions stay (see forget). */
export async function revoke(sql: Sql, name: string): Promise<Revoked> {
  return await sql.begin(async (tx) => {
    const slash = name.indexOf('/');
    if (slash !== -1) {
      const person = name.slice(0, slash);
      const device = name.slice(slash + 1);
      const rows = await tx`
        update devices set revoked_at = now()
        where person_id = (select id from people where name = ${person}) and name = ${device} and revoked_at is null
        returning id`;
      if (rows.length === 0) throw new TeamUnknownNameError(`no active device ${device} of ${person}`);
      return { kind: 'device', name, tokens: 1 };
    }
    const viewers =
      await tx`update viewers set revoked_at = now() where name = ${name} and revoked_at is null returning id`;
    if (viewers.length > 0) return { kind: 'viewer', name, tokens: 1 };
    const people = await tx<{ id: number }[]>`
      update people set revoked_at = now() where name = ${name} and revoked_at is null returning id::int`;
    if (people.length === 0) throw new TeamUnknownNameError(`no active person, viewer or device named ${name}`);
    const devices = await tx`
      update devices set revoked_at = now() where person_id = ${people[0]!.id} and revoked_at is null returning id`;
    return { kind: 'person', name, tokens: devices.length };
  });
}

export interface TeamListing {
  readonly people: readonly {
    readonly name: string;
    readonly createdAt: string;
    readonly revokedAt: string | null;
    readonly sessions: number;
    readonly devices: readonly {
      readonly name: string;
      readonly createdAt: string;
      readonly revokedAt: string | null;
      /** Its last push the server accepted (one that found nothing new too); null when it never pushed. */
      readonly lastPushAt: string | null;
      /** Its last accepted push or telemetry request (device-seen.ts); null when never. */
      readonly lastSeenAt: string | null;
      readonly agentdash: string | null;
      readonly sessions: number;
    }[];
  }[];
  readonly viewers: readonly { readonly name: string; readonly createdAt: string; readonly revokedAt: string | null }[];
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Everyone, with their devices and how many sessions each pushed (never a token or a hash). */
export async function listTeam(sql: Sql): Promise<TeamListing> {
  const people = await sql<{ id: number; name: string; created_at: Date; revoked_at: Date | null; sessions: number }[]>`
    select p.id::int, p.name, p.created_at, p.revoked_at,
      (select count(*)::int from sessions s where s.person_id = p.id) as sessions
    from people p order by p.name`;
  const devices = await sql<
    {
      person_id: number;
      name: string;
      created_at: Date;
      revoked_at: Date | null;
      last_push_at: Date | null;
      last_seen_at: Date | null;
      agentdash: string | null;
      sessions: number;
    }[]
  >`select d.person_id::int, d.name, d.created_at, d.revoked_at, d.last_push_at, d.last_seen_at, d.agentdash,
      (select count(*)::int from sessions s where s.device_id = d.id) as sessions
    from devices d order by d.name`;
  const viewers = await sql<{ name: string; created_at: Date; revoked_at: Date | null }[]>`
    select name, created_at, revoked_at from viewers order by name`;
  return {
    people: people.map((p) => ({
      name: p.name,
      createdAt: p.created_at.toISOString(),
      revokedAt: iso(p.revoked_at),
      sessions: p.sessions,
      devices: devices
        .filter((d) => d.person_id === p.id)
        .map((d) => ({
          name: d.name,
          createdAt: d.created_at.toISOString(),
          revokedAt: iso(d.revoked_at),
          lastPushAt: iso(d.last_push_at),
          lastSeenAt: iso(d.last_seen_at),
          agentdash: d.agentdash,
          sessions: d.sessions,
        })),
    })),
    viewers: viewers.map((v) => ({
      name: v.name,
      createdAt: v.created_at.toISOString(),
      revokedAt: iso(v.revoked_at),
    })),
  };
}

/** Who a token is, if it is an active device's or viewer's. */
export type Principal =
  | {
      readonly role: 'device';
      readonly personId: number;
      readonly person: string;
      readonly deviceId: number;
      readonly device: string;
      readonly salt: string;
    }
  | { readonly role: 'viewer'; readonly viewer: string };

export async function authenticate(sql: Sql, token: string): Promise<Principal | undefined> {
  const hash = tokenHash(token);
  const [device] = await sql<{ person_id: number; person: string; device_id: number; device: string; salt: string }[]>`
    select p.id::int as person_id, p.name as person, d.id::int as device_id, d.name as device, p.salt
    from devices d join people p on p.id = d.person_id
    where d.token_hash = ${hash} and d.revoked_at is null and p.revoked_at is null`;
  if (device) {
    return {
      role: 'device',
      personId: device.person_id,
      person: device.person,
      deviceId: device.device_id,
      device: device.device,
      salt: device.salt,
    };
  }
  const [viewer] = await sql<{ name: string }[]>`
    select name from viewers where token_hash = ${hash} and revoked_at is null`;
  return viewer ? { role: 'viewer', viewer: viewer.name } : undefined;
}

/** Whether anyone may hold a token: then the team server may listen beyond loopback. */
export async function hasTokenStore(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ any: boolean }[]>`
    select exists (select 1 from people) or exists (select 1 from viewers) as any`;
  return row?.any === true;
}
