/**
 * `agentdash push`: what the local index holds, to a team server, at each session's tier. Three stages, over a
 * window of sessions at a time (each payload built once, and held only until its window is sent):
 *  1. digest: every session's payload is built and hashed (full-tier transcripts by their cached chunk names; a file
 *     not in the cache is read, and the chunks made from it are kept, up to `HELD_BYTES` a window, so a first push
 *     reads most transcripts once). No chunk leaves yet: a session found unchanged, lowered to metadata (too large)
 *     or left out (invalid) sends none;
 *  2. manifest: the server answers which digests it lacks (an unchanged session costs its uid and digest, no row);
 *  3. send: the sessions it lacks go, after any of their chunks the server still lacks (kept, else read again), in
 *     batches, each stored whole or not at all.
 * Killed at any point, the next push finds the server's digests and chunks as they were left and sends the rest.
 */
import { statSync } from 'node:fs';
import type { SessionSummary } from '@agentdash/index';
import {
  type FileWire,
  MAX_PUSH_BODY_BYTES,
  MAX_SESSION_TEXT_BYTES,
  MAX_SESSIONS_PER_REQUEST,
  PushSession,
  type ShareTier,
  sessionTextBytes,
} from '../contract.js';
import { type BuildContext, buildSession, fileName, responsesBySession, uidOf } from './build.js';
import { type Chunk, ChunkTooLargeError, type FileChunks, fileChunks } from './chunks.js';
import { PushError } from './client.js';
import type { PushOptions, PushProgress, PushReport } from './push-report.js';
import { type ProjectTier, ruleOf, ruleText, tierOf } from './tiers.js';
import { ChunkUploader } from './uploader.js';

export type { PlannedSession, PushOptions, PushProgress, PushReport } from './push-report.js';

/** Budget of one `push/sessions` request's JSON (half the server's limit: room for the batch's envelope). */
const BATCH_BYTES = MAX_PUSH_BODY_BYTES / 2;
/** Chunk names asked about at once. */
const CHECK_BATCH = 1000;

/** Sessions digested, asked about and sent together (bounds the payloads held in memory). */
const WINDOW = 2000;
/**
 * Bytes of chunks (gzip) made while digesting and kept until the manifest's answer: a window ends once it holds as
 * many; a session past them alone has the rest of its chunks read again once it is wanted.
 */
const HELD_BYTES = 32 * 1024 * 1024;

interface Planned {
  readonly summary: SessionSummary;
  readonly tier: ShareTier;
  readonly payload: PushSession;
}

export async function push(options: PushOptions): Promise<PushReport> {
  const { index, client, cache } = options;
  // The client's counts before this push (one client serves every round of `push --watch`): the report is this push's.
  const before = { bytes: client.sentBytes, requests: client.requests, retried: client.retried };
  const me = await client.whoami();
  if (me.role !== 'device') {
    throw new PushError(`this token is ${me.person}'s viewer token: a push needs a device token`, 403);
  }
  const ctx: BuildContext = { index, salt: me.salt, responses: responsesBySession(index, options.filter) };
  const uploader = new ChunkUploader(client);
  /** The chunks made while digesting the window, by name, and their bytes (none sent before the manifest). */
  const made = new Map<string, Chunk>();
  let madeBytes = 0;
  const keep = (chunk: Chunk) => {
    // a dry run sends no chunk: none is held (each is shown, when asked)
    if (options.dryRun) return options.onDryRunChunk?.(chunk);
    if (made.has(chunk.sha256) || madeBytes >= HELD_BYTES) return;
    made.set(chunk.sha256, chunk);
    madeBytes += chunk.gz.byteLength;
  };
  // taken again each push: a `push --forget` in another process since the last round counts at once
  options.forgotten?.reload();
  const listed = index.listSessions(options.filter ?? {});
  const sessions = listed.filter((s) => options.forgotten?.has(uidOf(me.salt, s)) !== true);
  const tiers: Record<ShareTier, number> = { summary: 0, metadata: 0, full: 0 };
  const progress = (stage: PushProgress['stage'], done: number, total: number) =>
    options.onProgress?.({ stage, done, total });

  /**
   * A full-tier session's files, from the cache where their chunk names are known, else read (and cached), each chunk
   * kept as it is made (or handed to `onChunk`).
   */
  const filesOf = async (s: SessionSummary, onChunk?: (chunk: Chunk) => Promise<void>): Promise<FileWire[]> => {
    const out: FileWire[] = [];
    // the sizes the index holds the files at (what a file gone from disk is read at, from the archive), asked for
    // only when one is gone
    let held: Map<string, number> | undefined;
    const indexedSize = (path: string) => () => {
      if (held === undefined) {
        const files = index.sessionFiles(s.ref);
        held = new Map([files?.main, ...(files?.subagents ?? [])].flatMap((d) => (d ? [[d.path, d.size]] : [])));
      }
      return held.get(path);
    };
    for (const f of s.files) {
      const uncached = onChunk !== undefined || (options.dryRun !== undefined && options.onDryRunChunk !== undefined);
      let chunks: FileChunks | undefined = uncached ? undefined : cache.get(f.path, indexedSize(f.path));
      if (!chunks) {
        // the file's size and time before it is read: a line the agent appends meanwhile makes the next push read
        // it again, instead of the names of this read being kept under the longer file's size
        const stamp = cache.stamp(f.path, indexedSize(f.path));
        chunks = await fileChunks(index.openBytes, f.path, onChunk ?? keep);
        cache.set(f.path, chunks, stamp);
      }
      out.push({
        name: fileName(s.projectDir, f.path),
        role: f.role,
        agentId: f.agentId ?? null,
        bytes: chunks.bytes,
        chunks: [...chunks.chunks],
      });
    }
    return out;
  };
  const build = async (s: SessionSummary, tier: ShareTier, files?: FileWire[]): Promise<PushSession> =>
    buildSession(ctx, s, tier, tier === 'full' ? (files ?? (await filesOf(s))) : []);
  const lowered: { session: string; reason: string }[] = [];
  /** The session at its tier, or at metadata when the full tier cannot carry its transcripts (said in `lowered`). */
  const lower = async (s: SessionSummary, reason: string): Promise<{ tier: ShareTier; payload: PushSession }> => {
    lowered.push({ session: s.ref, reason });
    return { tier: 'metadata', payload: await build(s, 'metadata') };
  };
  const tooLarge = (bytes: number) =>
    `its transcripts hold ${bytes} bytes, more than the full tier's ${MAX_SESSION_TEXT_BYTES}`;
  const plan = async (s: SessionSummary, tier: ShareTier): Promise<{ tier: ShareTier; payload: PushSession }> => {
    // files already past the most on disk are not read and offered to the server only to be lowered after
    const onDisk = tier === 'full' ? s.files.reduce((n, f) => n + sizeOnDisk(f.path), 0) : 0;
    if (onDisk > MAX_SESSION_TEXT_BYTES) return await lower(s, tooLarge(onDisk));
    try {
      const payload = await build(s, tier);
      const bytes = 'files' in payload ? sessionTextBytes(payload) : 0;
      return bytes <= MAX_SESSION_TEXT_BYTES ? { tier, payload } : await lower(s, tooLarge(bytes));
    } catch (error) {
      if (!(error instanceof ChunkTooLargeError)) throw error;
      return await lower(s, error.message);
    }
  };

  const planned = { count: 0 };
  /** The sessions the server holds as this push sent them (stored or unchanged), by uid: their agent and id. */
  const held = new Map<string, string>();
  const matched = new Set<ProjectTier>();
  const skipped: { session: string; reason: string }[] = [];
  let toSend = 0;
  let sentCount = 0;
  let stored = 0;
  let unchanged = 0;
  let chunks = 0;
  let batch: Planned[] = [];
  /** The local reference of each session sent, by its uid (what the server names a refused one by), and its tier. */
  const refOf = new Map<string, string>();
  const tierSent = new Map<string, ShareTier>();
  const replacedHigher: { session: string; from: ShareTier; to: ShareTier }[] = [];
  let batchBytes = 0;
  // One batch in flight while the next is built: the server stores one while this side reads and builds the next.
  let inFlight: Promise<void> = Promise.resolve();
  let failure: { readonly error: unknown } | undefined;
  const settle = async () => {
    await inFlight;
    if (failure) throw failure.error;
  };
  const flush = async () => {
    if (batch.length === 0) return;
    // every chunk of the batch's sessions on the server before them
    await uploader.drain();
    await settle();
    const sending = batch;
    batch = [];
    batchBytes = 0;
    inFlight = storeBatch(sending).then(
      (answer) => {
        stored += answer.stored;
        unchanged += answer.unchanged;
        // refused alone (its uid is another person's on the server): said, and the others go on
        for (const r of answer.refused ?? []) {
          skipped.push({ session: refOf.get(r.uid) ?? r.uid, reason: r.reason });
          held.delete(r.uid);
        }
        for (const r of answer.lowered ?? []) {
          replacedHigher.push({
            session: refOf.get(r.uid) ?? r.uid,
            from: r.from,
            to: tierSent.get(r.uid) ?? 'summary',
          });
        }
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
  };
  /**
   * A batch stored; sent once more when the server lacks chunks this push found there, asked about again and sent
   * first: chunks are shared by content, and another push (another person's lowered tier or forget, of the same
   * transcripts) drops those no stored session refers to, this push's sessions not stored yet.
   */
  const storeBatch = async (sending: readonly Planned[]) => {
    try {
      return await client.sessions(sending.map((p) => p.payload));
    } catch (error) {
      if (!(error instanceof PushError && error.serverCode === 'TEAM_CHUNKS_MISSING')) throw error;
      for (const p of sending) for (const name of namesOf(p.payload)) uploader.onServer.delete(name);
      const lacking = await lackingChunks(sending);
      const again: PushSession[] = [];
      for (const p of sending) again.push(await ensureChunks(p, lacking));
      await uploader.drain();
      return await client.sessions(again);
    }
  };
  /**
   * Of the chunks the window's wanted full-tier sessions name, those the server lacks: asked about together, a
   * thousand names a request (asked session by session, a push whose names came from the cache made a request per
   * session to a server that lacked them: after an erase, a tier raised, a new server).
   */
  const lackingChunks = async (window: readonly Planned[]): Promise<Set<string>> => {
    const names = new Set<string>();
    for (const p of window) for (const c of namesOf(p.payload)) if (!uploader.onServer.has(c)) names.add(c);
    const unknown = [...names];
    const lacking = new Set<string>();
    for (let at = 0; at < unknown.length; at += CHECK_BATCH) {
      for (const name of (await client.checkChunks(unknown.slice(at, at + CHECK_BATCH))).missing) lacking.add(name);
    }
    for (const name of unknown) if (!lacking.has(name)) uploader.onServer.add(name);
    return lacking;
  };
  /** A wanted full-tier session's chunks on the server: those it lacks sent as kept, else read again and sent. */
  const ensureChunks = async (p: Planned, lacking: Set<string>): Promise<PushSession> => {
    const digested = namesOf(p.payload);
    for (const name of digested) {
      const chunk = made.get(name);
      if (chunk && lacking.delete(name)) await uploader.put(chunk);
    }
    const missing = new Set([...digested].filter((name) => lacking.has(name)));
    if (missing.size === 0) return p.payload;
    let files: FileWire[];
    try {
      files = await filesOf(p.summary, async (chunk) => {
        if (missing.delete(chunk.sha256) && lacking.delete(chunk.sha256)) await uploader.put(chunk);
        // a chunk of lines appended since the digest: never asked about, so offered (asked, and sent if lacking)
        // before the batch that names it, which the server would otherwise refuse whole
        else if (!digested.has(chunk.sha256) && !uploader.onServer.has(chunk.sha256)) await uploader.offer(chunk);
      });
    } catch (error) {
      // a file's names cached by an earlier version, made before a line past a chunk's most could be told
      if (!(error instanceof ChunkTooLargeError)) throw error;
      tiers.full -= 1;
      tiers.metadata += 1;
      return (await lower(p.summary, error.message)).payload;
    }
    // the file changed since it was digested: the payload names the chunks just made
    const same = 'files' in p.payload && JSON.stringify(files) === JSON.stringify(p.payload.files);
    return same ? p.payload : build(p.summary, p.tier, files);
  };

  // Windows of sessions, each digested, asked about and sent before the next: every payload is built once and
  // memory holds one window's payloads and kept chunks, however many sessions the index has.
  let next = 0;
  do {
    const at = next;
    // 1. digest
    const window: Planned[] = [];
    for (; next < sessions.length && next < at + WINDOW && madeBytes < HELD_BYTES; next++) {
      const s = sessions[next] as SessionSummary;
      const rule = ruleOf(options.policy, s);
      if (rule) matched.add(rule);
      const { tier, payload } = await plan(s, tierOf(options.policy, s));
      tiers[tier] += 1;
      // what the server would refuse is said here and left out, so one odd session never stops the others
      const checked = PushSession.safeParse(payload);
      if (!checked.success) {
        const problem = checked.error.issues[0];
        skipped.push({ session: s.ref, reason: `${problem?.path.join('.') ?? ''}: ${problem?.message ?? 'invalid'}` });
      } else {
        window.push({ summary: s, tier, payload });
        held.set(payload.uid, `${s.agent}\u0000${s.id}`);
        options.dryRun?.({ summary: s, tier, payload, rule: rule ? ruleText(rule) : undefined });
      }
      progress('digest', at + window.length + skipped.length, sessions.length);
    }
    cache.save();
    planned.count += window.length;
    // a dry run asks the server nothing more and sends nothing: what each session would leave as is told above
    if (options.dryRun) continue;

    // 2. manifest
    const manifest = window.map(({ payload }) => ({ uid: payload.uid, digest: payload.digest }));
    const want = new Set((await client.manifest(options.device, manifest)).want);
    progress('manifest', planned.count, sessions.length - skipped.length);

    // 3. send
    const wanted = window.filter((p) => want.has(p.payload.uid));
    toSend += wanted.length;
    unchanged += window.length - wanted.length;
    const lacking = await lackingChunks(wanted);
    for (const p of wanted) {
      chunks += namesOf(p.payload).size;
      const payload = await ensureChunks(p, lacking);
      const size = JSON.stringify(payload).length;
      if (batch.length >= MAX_SESSIONS_PER_REQUEST || (batch.length > 0 && batchBytes + size > BATCH_BYTES))
        await flush();
      batch.push({ ...p, payload });
      refOf.set(payload.uid, p.summary.ref);
      tierSent.set(payload.uid, payload.tier);
      batchBytes += size;
      sentCount += 1;
      progress('send', sentCount, toSend);
    }
    made.clear();
    madeBytes = 0;
  } while (next < sessions.length);
  if (options.dryRun) return report(0);
  await flush();
  await settle();
  cache.save();
  // A `push --forget` in another process while this push was sending: a session it forgot may have been stored again
  // by a batch already built. It is forgotten once more now, so that nothing forgotten stays on the server.
  if (options.forgotten) {
    options.forgotten.reload();
    const late = [...refOf.keys()].filter((uid) => options.forgotten?.has(uid));
    if (late.length > 0) await client.forget(late);
  }
  // After the sessions' batches, the headless outputs whose transcript this push holds on the server (stored or
  // unchanged, not refused), wherever the outputs are (a push of the home alone takes back what a push of the CI
  // artifacts sent): a push of the outputs' folder alone, or one whose transcript was refused, takes back nothing.
  const sent = new Set(held.values());
  const agent = options.filter?.agent;
  const copies = index
    .headlessCopies(agent ? { agent } : {})
    .filter((s) => sent.has(`${s.agent}\u0000${s.id.split('@')[0]}`))
    .map((s) => uidOf(me.salt, s));
  return report(copies.length > 0 ? await client.takeBack(copies) : 0);

  function report(superseded: number): PushReport {
    return {
      person: me.person,
      device: me.device,
      sessions: planned.count,
      superseded,
      unmatchedRules: options.policy.projects.filter((rule) => !matched.has(rule)).map(ruleText),
      forgotten: listed.length - sessions.length,
      skipped,
      lowered,
      replacedHigher,
      tiers,
      sent: toSend,
      stored,
      unchanged,
      chunks,
      chunksUploaded: uploader.uploaded,
      bytesSent: client.sentBytes - before.bytes,
      requests: client.requests - before.requests,
      retried: client.retried - before.retried,
      ...(client.retried > before.retried && client.lastLater !== undefined
        ? { retriedBecause: client.lastLater }
        : {}),
    };
  }
}

export { forget, unforget } from './forget.js';

/** The transcript chunks a full-tier session names (none below the full tier). */
const namesOf = (payload: PushSession): Set<string> =>
  new Set('files' in payload ? payload.files.flatMap((f) => f.chunks) : []);

/** A transcript's size on disk; 0 when it is gone (the archive holds it: its size is told when it is read). */
function sizeOnDisk(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
