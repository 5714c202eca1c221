/**
 * The push protocol's routes (`/api/team/v1`, contract.ts): device tokens only; bodies limited while read, gzip
 * accepted; a body of another payload version is a 409 saying which side to upgrade; a malformed one a 400 with
 * one line, before anything is written.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { decodeChunks, MAX_CHUNKS_BODY_BYTES } from '../chunk-batch.js';
import {
  ChunkCheckRequest,
  ForgetRequest,
  ForgetSessionsRequest,
  MAX_CHUNK_BYTES,
  MAX_PUSH_BODY_BYTES,
  MAX_SESSION_TEXT_BYTES,
  ManifestRequest,
  PAYLOAD_TOLD_BY_TIER,
  PAYLOAD_TOLD_LOWERED,
  PAYLOAD_VERSION_HEADER,
  SessionsRequest,
  sessionTextBytes,
  TEAM_PAYLOAD_VERSION,
  TEAM_PAYLOAD_VERSIONS_TAKEN,
  type WhoAmI,
} from '../contract.js';
import { digestOf } from '../digest.js';
import { sweeper, touchChunks } from '../pg/chunk-gc.js';
import { missingChunks, sha256Hex, storeChunk, storeChunks } from '../pg/chunk-store.js';
import type { Sql } from '../pg/db.js';
import { forgetSessions, unforgetSessions } from '../pg/forgotten.js';
import { manifestWant, type Pusher, storeSessions } from '../pg/ingest.js';
import type { Principal } from '../pg/people.js';
import type { StatisticsKeeper } from '../pg/statistics.js';
import { TranscriptSizeError } from '../pg/transcripts.js';
import { type TeamEnv, teamAuth } from './auth.js';
import { drain, readLimited } from './body.js';
import { createIngestGate, type IngestGate } from './ingest-gate.js';
import { fromOlderPayload, rawSessions } from './older-payload.js';
import { ok, TeamHttpError } from './team-http.js';
import { notifyChanged } from './team-live.js';

/**
 * Largest body of a request that lists names only (a manifest's 50,000 uids and digests, 100,000 chunk names, the uids
 * to forget): about 7 MiB at most, so 8 MiB, not the 64 MiB a batch of sessions may take.
 */
const MAX_LIST_BODY_BYTES = 8 * 1024 * 1024;
/** Largest forget naming session ids: 50,000 uids with ids of up to 300 characters, about 18 MiB. */
const MAX_FORGET_SESSIONS_BODY_BYTES = 20 * 1024 * 1024;

/** The 409 for a peer speaking payload version `theirs`. */
export function versionMismatch(theirs: number): TeamHttpError {
  const side = theirs < TEAM_PAYLOAD_VERSION ? 'upgrade agentdash on this laptop' : 'upgrade the team server';
  return new TeamHttpError(
    409,
    `payload version ${theirs} is not this team server's (${TEAM_PAYLOAD_VERSION}): ${side}`,
    'TEAM_VERSION_MISMATCH',
  );
}

function checkHeaderVersion(header: string | undefined): void {
  if (header === undefined) return;
  const theirs = Number(header);
  if (!Number.isInteger(theirs))
    throw new TeamHttpError(400, `${PAYLOAD_VERSION_HEADER} must be an integer`, 'TEAM_BAD_BODY');
  if (!TEAM_PAYLOAD_VERSIONS_TAKEN.includes(theirs)) throw versionMismatch(theirs);
}

/** The first problem zod found, as one line (and how many more). */
export function oneLine(error: z.ZodError): string {
  const [first] = error.issues;
  if (!first) return 'invalid body';
  const path = first.path.length > 0 ? first.path.map(String).join('.') : '(body)';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  return `${path}: ${first.message}${more}`;
}

/**
 * The body parsed by `schema`, after the size limit and the version check; `prepare` sees the JSON first, with its
 * version (this build's when it names none).
 */
async function bodyOf<S extends z.ZodType>(
  request: Request,
  schema: S,
  prepare?: (json: unknown, version: number) => unknown,
  limit = MAX_PUSH_BODY_BYTES,
): Promise<z.infer<S>> {
  const bytes = await readLimited(request, limit, true);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new TeamHttpError(400, 'the body is not JSON', 'TEAM_BAD_BODY');
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && Number.isInteger(version) && !TEAM_PAYLOAD_VERSIONS_TAKEN.includes(version)) {
    throw versionMismatch(version);
  }
  if (prepare) json = prepare(json, typeof version === 'number' ? version : TEAM_PAYLOAD_VERSION);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new TeamHttpError(400, oneLine(parsed.error), 'TEAM_BAD_BODY');
  return parsed.data;
}

/** A 400 for the first session whose digest is not the SHA-256 of its content (one without a digest: the schema's). */
function checkDigests(json: unknown): void {
  for (const s of rawSessions(json)) {
    if (typeof s.digest === 'string' && digestOf(s) !== s.digest) {
      throw new TeamHttpError(
        400,
        `session ${String(s.uid)}: its digest is not the SHA-256 of its content`,
        'TEAM_BAD_DIGEST',
      );
    }
  }
}

function pusherOf(principal: Principal): Pusher & { person: string; device: string; salt: string } {
  if (principal.role !== 'device') {
    throw new TeamHttpError(403, 'a viewer token reads the dashboard; only a device token pushes', 'TEAM_NOT_A_DEVICE');
  }
  return { ...principal };
}

/**
 * Tells every team server on this database (their open dashboards) which sessions changed. A failure loses only the
 * live update, never the push: the dashboards' cached answers expire on their own.
 */
async function announce(sql: Sql, uids: readonly string[]): Promise<void> {
  await notifyChanged(sql, uids).catch(() => {});
}

/** Holds a request that stores pushed data until `gate` gives it a slot; 503 with `Retry-After` past the wait. */
function gated(gate: IngestGate): MiddlewareHandler<TeamEnv> {
  return async (c, next) => {
    const leave = await gate.enter();
    if (leave === undefined) {
      const seconds = gate.retryAfterSeconds;
      return c.json(
        {
          success: false,
          error: `the team server is busy storing other pushes: send again in ${seconds} s`,
          code: 'TEAM_BUSY',
        },
        503,
        { 'Retry-After': String(seconds) },
      );
    }
    try {
      await next();
    } finally {
      leave();
    }
  };
}

/**
 * The push routes, to mount at `/api/team/v1`; `gate` bounds how many requests store data at once, `statistics` is
 * told of every session stored.
 */
export function pushRoutes(
  sql: Sql,
  statistics: StatisticsKeeper,
  gate: IngestGate = createIngestGate(),
): Hono<TeamEnv> {
  const api = new Hono<TeamEnv>();
  const stores = gated(gate);
  // the chunks no session came to refer to, swept now and then after a push stored sessions (chunk-gc.ts)
  const sweep = sweeper(sql);
  // A body refused before it was read (bad token, a viewer, another version) is read and dropped, so the client
  // gets the answer and its keep-alive connection stays usable, instead of a reset on its next request.
  api.use('*', async (c, next) => {
    await next();
    const body = c.req.raw.body;
    if (body && !c.req.raw.bodyUsed) await drain(body.getReader(), MAX_PUSH_BODY_BYTES);
  });
  api.use('*', teamAuth(sql, { browser: false }));
  api.use('*', async (c, next) => {
    checkHeaderVersion(c.req.header(PAYLOAD_VERSION_HEADER));
    await next();
  });

  api.get('/whoami', (c) => {
    const who = pusherOf(c.get('principal'));
    const body: WhoAmI = {
      version: TEAM_PAYLOAD_VERSION,
      role: 'device',
      person: who.person,
      device: who.device,
      salt: who.salt,
    };
    return ok(c, body);
  });

  api.post('/push/manifest', async (c) => {
    const who = pusherOf(c.get('principal'));
    const body = await bodyOf(c.req.raw, ManifestRequest, undefined, MAX_LIST_BODY_BYTES);
    return ok(c, { want: await manifestWant(sql, body.sessions, who, body.device) });
  });

  api.post('/push/chunks/check', async (c) => {
    pusherOf(c.get('principal'));
    const body = await bodyOf(c.req.raw, ChunkCheckRequest, undefined, MAX_LIST_BODY_BYTES);
    // those it holds are about to be referred to: marked first, so no sweep takes one between its answer and the push
    await touchChunks(sql, body.chunks);
    return ok(c, { missing: await missingChunks(sql, body.chunks) });
  });

  api.put('/push/chunks/:sha256', stores, async (c) => {
    const who = pusherOf(c.get('principal'));
    const sha256 = c.req.param('sha256');
    if (!/^[0-9a-f]{64}$/.test(sha256))
      throw new TeamHttpError(400, 'a chunk is named by its SHA-256 (64 hex digits)', 'TEAM_BAD_BODY');
    const bytes = await readLimited(c.req.raw, MAX_CHUNK_BYTES, false);
    if (sha256Hex(bytes) !== sha256) {
      throw new TeamHttpError(400, "the chunk's bytes do not have the SHA-256 its address names", 'TEAM_BAD_BODY');
    }
    return ok(c, { stored: await storeChunk(sql, sha256, bytes, who.personId) });
  });

  api.post('/push/chunks', stores, async (c) => {
    const who = pusherOf(c.get('principal'));
    const chunks = decodeChunks(await readLimited(c.req.raw, MAX_CHUNKS_BODY_BYTES, false));
    if (typeof chunks === 'string') throw new TeamHttpError(400, chunks, 'TEAM_BAD_BODY');
    for (const chunk of chunks) {
      if (sha256Hex(chunk.bytes) !== chunk.sha256) {
        throw new TeamHttpError(400, `chunk ${chunk.sha256}: its bytes do not have that SHA-256`, 'TEAM_BAD_BODY');
      }
    }
    return ok(c, { stored: await storeChunks(sql, chunks, who.personId) });
  });

  api.post('/push/sessions', stores, async (c) => {
    const who = pusherOf(c.get('principal'));
    // An older laptop's sessions are read as this version's, their digests checked on the JSON as it came first.
    const body = await bodyOf(c.req.raw, SessionsRequest, (json, version) => {
      if (version >= PAYLOAD_TOLD_BY_TIER) return json;
      checkDigests(json);
      return fromOlderPayload(json, who.salt);
    });
    if (body.version >= PAYLOAD_TOLD_BY_TIER) checkDigests(body);
    const seen = new Set<string>();
    for (const s of body.sessions) {
      if (seen.has(s.uid)) throw new TeamHttpError(400, `session ${s.uid} is twice in one request`, 'TEAM_BAD_BODY');
      seen.add(s.uid);
      if (s.tier === 'full' && sessionTextBytes(s) > MAX_SESSION_TEXT_BYTES) {
        throw new TeamHttpError(
          413,
          `session ${s.uid}: its transcripts hold more than ${MAX_SESSION_TEXT_BYTES} bytes, the full tier's most`,
          'TEAM_TRANSCRIPT_SIZE',
        );
      }
    }
    try {
      const { changed, refused, lowered, ...stored } = await storeSessions(sql, body.sessions, who);
      // a version 3 laptop is told which sessions were refused, a version 6 one which were lowered (an older one's
      // schema has no room for them)
      const result = {
        ...stored,
        ...(refused.length > 0 && body.version >= PAYLOAD_TOLD_BY_TIER ? { refused } : {}),
        ...(lowered.length > 0 && body.version >= PAYLOAD_TOLD_LOWERED ? { lowered } : {}),
      };
      statistics.stored(changed.length);
      sweep();
      await announce(sql, changed);
      return ok(c, result);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'TEAM_PUSH_REFUSED') {
        throw new TeamHttpError(400, (error as Error).message, 'TEAM_CHUNKS_MISSING');
      }
      if (error instanceof TranscriptSizeError) throw new TeamHttpError(400, error.message, 'TEAM_TRANSCRIPT_SIZE');
      throw error;
    }
  });

  // a forget, recorded (the person's), and a take-back of a headless run's copies (the transcript holds them), not
  // (a forget naming the sessions' ids: recorded for a uid the server never held too)
  for (const [path, record] of [
    ['/push/forget', true],
    ['/push/take-back', false],
    ['/push/forget-sessions', true],
  ] as const) {
    api.post(path, async (c) => {
      const who = pusherOf(c.get('principal'));
      const { uids, sessionIds } =
        path === '/push/forget-sessions'
          ? await bodyOf(c.req.raw, ForgetSessionsRequest, undefined, MAX_FORGET_SESSIONS_BODY_BYTES).then((b) => ({
              uids: b.sessions.map((s) => s.uid),
              sessionIds: new Map(b.sessions.map((s) => [s.uid, s.sessionId])),
            }))
          : { ...(await bodyOf(c.req.raw, ForgetRequest, undefined, MAX_LIST_BODY_BYTES)), sessionIds: undefined };
      // the sessions each batch deleted are announced once it committed, also when a later batch fails
      const deleted: string[] = [];
      try {
        const committed = (batch: readonly string[]) => deleted.push(...batch);
        const forgotten = await forgetSessions(sql, uids, who.personId, { record, committed, sessionIds });
        return ok(c, { forgotten });
      } finally {
        if (deleted.length > 0) await announce(sql, deleted);
      }
    });
  }

  // the person's own records only: a uid another person forgot stays theirs
  api.post('/push/unforget', async (c) => {
    const who = pusherOf(c.get('principal'));
    const body = await bodyOf(c.req.raw, ForgetRequest, undefined, MAX_LIST_BODY_BYTES);
    return ok(c, { unforgotten: await unforgetSessions(sql, who.personId, body.uids) });
  });

  return api;
}
