/**
 * Several transcript chunks in one `POST /api/team/v1/push/chunks` body (contract.ts), so a push is not one request
 * (and one statement) per chunk: most transcripts are small files, each its own chunk of a few kB. The body is the
 * chunks one after another, each `<its SHA-256: 64 lower-case hex ASCII bytes><its length: 4 bytes, big-endian>
 * <its bytes as PUT would send them>`. No JSON: the gzip bytes go as they are, neither escaped nor base64.
 */
import { MAX_CHUNK_BYTES } from './contract.js';

/** Largest body of chunks (a chunk larger than a batch's share goes alone). */
export const MAX_CHUNKS_BODY_BYTES = 16 * 1024 * 1024;

const NAME_BYTES = 64;
const HEAD_BYTES = NAME_BYTES + 4;

export interface NamedBytes {
  readonly sha256: string;
  readonly bytes: Uint8Array;
}

/** The body for `chunks`. */
export function encodeChunks(chunks: readonly NamedBytes[]): Buffer {
  const parts: Buffer[] = [];
  for (const c of chunks) {
    const head = Buffer.alloc(HEAD_BYTES);
    head.write(c.sha256, 0, NAME_BYTES, 'latin1');
    head.writeUInt32BE(c.bytes.byteLength, NAME_BYTES);
    parts.push(head, Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength));
  }
  return Buffer.concat(parts);
}

/** The chunks of a body, or what is wrong with it (one line). Their names are not checked against their bytes. */
export function decodeChunks(body: Uint8Array): NamedBytes[] | string {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const out: NamedBytes[] = [];
  for (let at = 0; at < buffer.length; ) {
    if (buffer.length - at < HEAD_BYTES) return `chunk ${out.length + 1}: the body ends inside its name and length`;
    const sha256 = buffer.toString('latin1', at, at + NAME_BYTES);
    if (!/^[0-9a-f]{64}$/.test(sha256))
      return `chunk ${out.length + 1}: a chunk is named by its SHA-256 (64 hex digits)`;
    const length = buffer.readUInt32BE(at + NAME_BYTES);
    if (length > MAX_CHUNK_BYTES) return `chunk ${out.length + 1}: larger than ${MAX_CHUNK_BYTES} bytes`;
    const start = at + HEAD_BYTES;
    if (start + length > buffer.length) return `chunk ${out.length + 1}: the body ends inside its bytes`;
    out.push({ sha256, bytes: buffer.subarray(start, start + length) });
    at = start + length;
  }
  return out;
}
