/**
 * Searchable text is stored once, compressed: `docs.body` holds deflate-raw bytes (short texts stay plain), the
 * `docs_text` view gives it back through the `doc_text()` SQL function, and the FTS5 index (`docs_fts`) uses that
 * view as its external content, so snippets still come from FTS5 while the text takes about a fifth of the room.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

type Zlib = typeof import('node:zlib');
let loaded: Zlib | undefined;

/**
 * node:zlib, loaded on first use (about 7 ms): a command answered from a warm index loads this module (the schema
 * needs `doc_text`) but never packs or unpacks a text.
 */
function zlib(): Zlib {
  loaded ??= createRequire(import.meta.url)('node:zlib') as Zlib;
  return loaded;
}

/** Texts shorter than this are stored as they are (compressing them saves nothing). */
const PLAIN_BELOW = 96;

/** The stored form of a searchable text. */
export function packDocText(text: string): string | Buffer {
  if (text.length < PLAIN_BELOW) return text;
  return zlib().deflateRawSync(Buffer.from(text, 'utf8'), { level: 6 });
}

/** The text of a stored form (plain text passes through). */
export function unpackDocText(stored: unknown): string | null {
  if (typeof stored === 'string') return stored;
  if (Buffer.isBuffer(stored) || stored instanceof Uint8Array) return zlib().inflateRawSync(stored).toString('utf8');
  return null;
}

/** Register `doc_text(body)` on a connection; needed before migrating (the FTS delete trigger uses it). */
export function registerDocText(db: Database.Database): void {
  db.function('doc_text', { deterministic: true }, (stored: unknown) => unpackDocText(stored));
}
