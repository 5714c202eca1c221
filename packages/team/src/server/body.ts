/**
 * Request bodies read with a limit counted while reading (a body is never buffered past it), gzip undone on the way
 * when `Content-Encoding: gzip` says so, the limit then applying to the inflated bytes (no gzip bomb gets through).
 */
import { TeamHttpError } from './team-http.js';

/** What a sender whose body was too large can do: a laptop's push (the default), an OTLP exporter's batch, … */
const PUSH_ADVICE = 'push fewer sessions per request';

const tooLarge = (limit: number, advice: string) =>
  new TeamHttpError(413, `the body is larger than ${limit} bytes: ${advice}`, 'TEAM_BODY_TOO_LARGE');

/**
 * Reads and drops the rest of a refused body (up to a bound), so the client, still sending, reads the 413 instead of
 * a reset connection; memory stays bounded since nothing is kept.
 */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, bound: number): Promise<void> {
  let dropped = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
      if (dropped > bound) break;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => {});
}

/**
 * The whole body, at most `limit` bytes (after gzip when `inflate` and the request says gzip); past it, a 413 saying
 * what its sender can do (`advice`).
 */
export async function readLimited(
  request: Request,
  limit: number,
  inflate: boolean,
  advice = PUSH_ADVICE,
): Promise<Uint8Array> {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const gzip = encoding === 'gzip';
  if (!gzip && encoding !== 'identity') {
    throw new TeamHttpError(415, `Content-Encoding ${encoding} is not accepted (gzip or none)`, 'TEAM_BAD_ENCODING');
  }
  if (gzip && !inflate) {
    throw new TeamHttpError(415, 'a chunk is sent as is, without Content-Encoding', 'TEAM_BAD_ENCODING');
  }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!request.body) return new Uint8Array(0);
  if (!gzip && declared > limit) {
    await drain(request.body.getReader(), 2 * limit);
    throw tooLarge(limit, advice);
  }
  const stream = gzip ? request.body.pipeThrough(new DecompressionStream('gzip')) : request.body;
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await drain(reader, 2 * limit);
        throw tooLarge(limit, advice);
      }
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof TeamHttpError) throw error;
    throw new TeamHttpError(400, gzip ? 'the body is not valid gzip' : 'the body could not be read', 'TEAM_BAD_BODY');
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
