/**
 * Full-text search over full-tier transcripts, kept in PostgreSQL so the team's hits are the laptop's: each pushed
 * transcript is cut into the same searchable documents the local index makes (`docPartsOf`, `indexedText`), and the
 * words are the ones FTS5's unicode61 tokenizer sees (`tokensOf`: letters and digits, case and diacritics folded,
 * each CJK character a word). PostgreSQL keeps one `tsvector` per session, its distinct words without positions,
 * under a GIN index: it finds the sessions holding every word of a query. The documents' text is not stored a second
 * time (the transcripts' compressed chunks hold it): a candidate session's documents are cut again from its chunks,
 * checked for the query's phrases and prefixes on their tokens, as FTS5 would match them, and the snippet cut as the
 * laptop cuts it.
 */
import {
  type AgentAdapter,
  type AgentId,
  adapterForFile,
  agentAdapters,
  EmbeddedThreads,
  type TranscriptRecord,
} from '@agentdash/core';
import { docPartsOf, indexedText, occurrencesOf, type queryPhrases, tokensOf } from '@agentdash/index';
import type { Sql, TxSql } from './db.js';
import { loadTranscripts, type PushedFile } from './transcripts.js';

/** A word longer than this is left out of the `tsvector` (PostgreSQL refuses lexemes over 2 KB). */
const MAX_WORD_CHARS = 500;

type QueryPhrase = ReturnType<typeof queryPhrases>[number];

export interface DocRow {
  readonly seq: number;
  readonly kind: string;
  readonly call_id: string | null;
  readonly tool: string | null;
  readonly agent_id: string | null;
  readonly ts: string | null;
  readonly body: string;
}

type Token = ReturnType<typeof tokensOf>[number];

/** Any UTF-16 unit past ASCII (a surrogate too). */
const NON_ASCII = /[\u0080-\uffff]/;
const isAscii = (text: string) => !NON_ASCII.test(text);

/**
 * A text's tokens as `tokensOf` gives them. Most text is ASCII, whose tokens are its runs of letters and digits in
 * lower case (nothing to fold, no CJK): read so, several times faster than the general tokenizer; in other text,
 * each run of word characters that is ASCII is only lower-cased, the rest goes through `tokensOf`.
 */
export function fastTokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  if (isAscii(text)) {
    for (const m of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
      tokens.push({ start: m.index, end: m.index + m[0].length, folded: m[0], cjk: false });
    }
    return tokens;
  }
  for (const m of text.matchAll(/[\p{L}\p{N}\p{Co}\p{M}]+/gu)) {
    const run = m[0];
    if (isAscii(run)) {
      tokens.push({ start: m.index, end: m.index + run.length, folded: run.toLowerCase(), cjk: false });
      continue;
    }
    for (const t of tokensOf(run)) tokens.push({ ...t, start: t.start + m.index, end: t.end + m.index });
  }
  return tokens;
}

/** The distinct words of a text as the full-text index has them. */
export function wordsOf(text: string): string[] {
  const words = new Set<string>();
  // ASCII (most text): the runs themselves, without a token object each (a push cuts every transcript's words)
  const runs = isAscii(text) ? (text.toLowerCase().match(/[a-z0-9]+/g) ?? []) : fastTokensOf(text).map((t) => t.folded);
  for (const w of runs) if (w.length <= MAX_WORD_CHARS) words.add(w);
  return [...words];
}

/**
 * Where each document of a session starts (`search_docs`, by `seq`), for agents whose lines decode alone: the line
 * of its record, as the session's chunk holding it (its files in order, each file's chunks in order: a line never
 * crosses a chunk) and the line's byte offset in that chunk's text; a document is its record's line's parts in
 * order, so its part is its distance from the line's first document. An output's tool, which comes from its call's
 * input read before it, is kept beside (`outSeq`, `outTool`).
 */
export interface DocStarts {
  readonly chunk: number[];
  readonly at: number[];
  readonly outSeq: number[];
  readonly outTool: string[];
}

/** Adds document `seq`'s start (its record's line at `offset` in its file); -1 when it cannot be told. */
function addStart(
  starts: DocStarts,
  seq: number,
  offset: number | undefined,
  chunkStarts: readonly number[] | undefined,
  firstChunk: number,
  outTool: string | undefined,
): void {
  let i = (chunkStarts?.length ?? 0) - 1;
  while (i > 0 && (chunkStarts?.[i] ?? 0) > (offset ?? 0)) i--;
  const known = offset !== undefined && chunkStarts !== undefined && i >= 0;
  starts.chunk.push(known ? firstChunk + i : -1);
  starts.at.push(known ? offset - (chunkStarts[i] ?? 0) : -1);
  if (outTool !== undefined) {
    starts.outSeq.push(seq);
    starts.outTool.push(outTool);
  }
}

/** Whether an agent's documents can be read back one line each (its lines decode alone). */
export const locatable = (agent: AgentId): boolean =>
  agentAdapters.find((a) => a.id === agent)?.capabilities.linesStandAlone === true;

/** A session's documents with where each starts (undefined for an agent whose lines do not decode alone). */
export async function docsWithStarts(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
): Promise<{ docs: DocRow[]; starts: DocStarts | undefined }> {
  const starts: DocStarts | undefined = locatable(session.agent)
    ? { chunk: [], at: [], outSeq: [], outTool: [] }
    : undefined;
  const docs = await docsOf(sql, session, pushed, undefined, undefined, starts);
  const whole = starts && starts.chunk.length === docs.length && !starts.chunk.includes(-1);
  return { docs, starts: whole ? starts : undefined };
}

/**
 * The subagent records a file's read takes as their agent's thread (`EmbeddedThreads`, core's one rule): copies of
 * an agent with no file among the session's pushed files. One per file read, as the laptop's index reads each file
 * (its copy-rows.ts); undefined for an agent that writes no copies.
 */
export function copiesOfRead(adapter: AgentAdapter, pushed: readonly PushedFile[]): EmbeddedThreads | undefined {
  if (adapter.embeddedRecordOf === undefined) return undefined;
  return new EmbeddedThreads(adapter, new Set(pushed.flatMap((f) => (f.agentId ? [f.agentId] : []))));
}

/**
 * A record and, after it, the subagent record it holds when that is its agent's thread: what a file's read makes
 * documents of, in order (the laptop's index keeps a copy's documents right after its holder's, with its agent).
 */
export function withCopies(
  record: TranscriptRecord,
  agentId: string | null,
  copies: EmbeddedThreads | undefined,
): { record: TranscriptRecord; agentId: string | null }[] {
  const copy = copies?.take(record);
  return copy
    ? [
        { record, agentId },
        { record: copy.record, agentId: copy.agentId },
      ]
    : [{ record, agentId }];
}

/** Thrown from a transcript's record callback to stop reading it (`docsOf`'s `stop`). */
const STOP = Symbol('stop');

/**
 * The searchable documents of a full-tier session's transcripts, in file and record order; with `stop`, only up to
 * the first document it accepts (the transcripts are read no further; an output's tool is then its call's as far as
 * read, which in every transcript precedes it). A document `wanted` refuses (by its `seq`) gets an empty body.
 */
export async function docsOf(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
  stop?: (doc: DocRow) => boolean,
  wanted?: (seq: number) => boolean,
  starts?: DocStarts,
): Promise<DocRow[]> {
  const transcripts = await loadTranscripts(sql, session, pushed, stop !== undefined);
  const docs: DocRow[] = [];
  const toolOf = new Map<string, string>();
  // where the current file's chunks start in its text, and the session's number of its first chunk
  let chunkStarts: readonly number[] | undefined;
  let firstChunk = 0;
  let copies: EmbeddedThreads | undefined;
  const add = (record: TranscriptRecord, agentId: string | null) => {
    for (const read of withCopies(record, agentId, copies)) addParts(read.record, read.agentId, record);
  };
  /** A record's documents; a copy's start is its holder's line. */
  const addParts = (record: TranscriptRecord, agentId: string | null, holder: TranscriptRecord) => {
    for (const part of docPartsOf(record)) {
      if (part.kind === 'tool-input' && part.callId && part.tool) toolOf.set(part.callId, part.tool);
      // PostgreSQL text holds no NUL (FTS5 treats it as a separator: no word is lost)
      const body = wanted?.(docs.length) === false ? '' : indexedText(part).replaceAll('\0', ' ');
      // an output's tool as far as read: what a read stopping at this document gives it
      const readTool = part.tool ?? (part.callId ? toolOf.get(part.callId) : undefined);
      const tool = stop ? readTool : part.tool;
      if (starts)
        addStart(starts, docs.length, holder.loc?.offset, chunkStarts, firstChunk, part.tool ? undefined : readTool);
      const doc = {
        seq: docs.length,
        kind: part.kind,
        call_id: part.callId ?? null,
        tool: tool ?? null,
        agent_id: agentId,
        ts: record.timestamp ?? null,
        body,
      };
      docs.push(doc);
      if (stop?.(doc)) throw STOP;
    }
  };
  for (const [i, file] of transcripts.files.entries()) {
    chunkStarts = transcripts.chunkStarts?.get(file.path);
    firstChunk = pushed.slice(0, i).reduce((n, f) => n + f.chunks.length, 0);
    const adapter = adapterForFile(file);
    copies = copiesOfRead(adapter, pushed);
    const records: TranscriptRecord[] = [];
    try {
      await adapter.streamRecords(
        file,
        (event) => {
          if (event.kind !== 'record') return;
          if (stop) add(event.record, file.agentId ?? null);
          else records.push(event.record);
        },
        { open: transcripts.open },
      );
    } catch (error) {
      if (error === STOP) return docs;
      // an unreadable transcript is searched as far as it was read (parsing reports, never throws, on the laptop)
    }
    for (const record of records) add(record, file.agentId ?? null);
  }
  // an output's tool is its call's (the laptop's index finds it the same way)
  return docs.map((d) => (d.tool === null && d.call_id ? { ...d, tool: toolOf.get(d.call_id) ?? null } : d));
}

/** UTF-8 bytes of words and positions in one `search_words` row: well under the 1 MB a `tsvector` holds. */
const PART_BYTES = 512 * 1024;
/** The largest position a `tsvector` holds; a document past it is stored at it (then "somewhere from here on"). */
export const MAX_POSITION = 16383;
/** Positions a `tsvector` keeps per word; a word in more documents is stored with this many ("and more"). */
export const MAX_POSITIONS = 256;

const lexeme = (w: string) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Stores the words of a session's documents (inside the transaction that stores the session), in parts: each word
 * with the documents that hold it as its positions (document `seq` + 1), so a search knows which documents to read
 * and how many hold its words before cutting any.
 */
export async function insertSearchWords(tx: TxSql, key: { personId: number; uid: string }, docs: readonly DocRow[]) {
  await Promise.all(searchWordsInserts(tx, key, docs));
}

/** `insertSearchWords`' inserts, each started at once (in order after the statements started before them). */
export function searchWordsInserts(
  tx: TxSql,
  key: { personId: number; uid: string },
  docs: readonly DocRow[],
): Promise<unknown>[] {
  const positions = new Map<string, number[]>();
  for (const d of docs) {
    const at = Math.min(d.seq + 1, MAX_POSITION);
    for (const w of wordsOf(d.body)) {
      const list = positions.get(w);
      if (!list) positions.set(w, [at]);
      else if (list.length < MAX_POSITIONS && list.at(-1) !== at) list.push(at);
    }
  }
  const parts: string[][] = [[]];
  let bytes = 0;
  for (const [w, list] of positions) {
    const entry = `${lexeme(w)}:${list.join(',')}`;
    const size = Buffer.byteLength(w) + 8 + 2 * list.length;
    if (bytes + size > PART_BYTES && (parts.at(-1)?.length ?? 0) > 0) {
      parts.push([]);
      bytes = 0;
    }
    parts.at(-1)?.push(entry);
    bytes += size;
  }
  return parts.map((list, part) =>
    tx`insert into search_words (person_id, uid, part, words)
      values (${key.personId}, ${key.uid}, ${part}, ${list.join(' ')}::tsvector)`.execute(),
  );
}

/**
 * A query's words as `tsquery`s a candidate session matches each (in any part of its words): each word, a prefix
 * where the query has one.
 */
export function candidateQueries(phrases: readonly QueryPhrase[]): string[] {
  const quote = (w: string) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return [
    ...new Set(
      phrases.flatMap(({ words, prefix }) =>
        words.map((w, i) => (prefix && i === words.length - 1 ? `${quote(w)}:*` : quote(w))),
      ),
    ),
  ];
}

/** How often each phrase occurs in `text` (0 for one that does not: then FTS5 would not match it). */
export function phraseCounts(text: string, phrases: readonly QueryPhrase[]): number[] {
  const tokens = fastTokensOf(text);
  return phrases.map((phrase) => occurrencesOf(tokens, [phrase]).filter((o) => o !== undefined).length);
}

/** A full-tier session as search reads it back. */
export interface StoredSession {
  readonly person_id: number;
  readonly uid: string;
  readonly digest: string;
  readonly agent: AgentId;
  readonly session_id: string;
  readonly project_dir: string | null;
}

/** Characters of documents kept in memory between searches (a search over the same sessions again cuts none). */
const CACHE_CHARS = 64 * 2 ** 20;
const cache = new Map<string, readonly DocRow[]>();
let cachedChars = 0;

/**
 * A stored session's documents up to the first `test` accepts (true when one does), from the cache when cut before,
 * else cut from its chunks only as far as that document; those not in `docs` (by `seq`) come with an empty body.
 */
export async function firstStoredDoc(
  sql: Sql,
  s: StoredSession,
  test: (doc: DocRow) => boolean,
  docs?: ReadonlySet<number>,
): Promise<boolean> {
  const cached = cache.get(keyOf(s));
  if (cached) return cached.some(test);
  let found = false;
  const wanted = docs && ((seq: number) => docs.has(seq));
  await docsOf(sql, sessionOf(s), await pushedOf(sql, s), (d) => (found = test(d)), wanted);
  return found;
}

/** Forgets every kept document (tests compare a search's answers from nothing kept). */
export function forgetDocs(): void {
  cache.clear();
  cachedChars = 0;
}

/** A session's documents cut before and still kept, else undefined. */
export const cachedDocs = (s: StoredSession): readonly DocRow[] | undefined => cache.get(keyOf(s));

/**
 * A stored session's documents, cut again from its chunks (kept a while, least recently used out first; keyed by the
 * digest, so a session pushed again is cut again).
 */
export async function storedDocs(sql: Sql, s: StoredSession): Promise<readonly DocRow[]> {
  const key = keyOf(s);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const docs = await docsOf(sql, sessionOf(s), await pushedOf(sql, s));
  keepDocs(s, docs);
  return docs;
}

/** Keeps a session's documents a while (the least recently used go first past `CACHE_CHARS`). */
export function keepDocs(s: StoredSession, docs: readonly DocRow[]): void {
  const key = keyOf(s);
  const chars = docs.reduce((n, d) => n + d.body.length, 0);
  if (chars > CACHE_CHARS / 4 || cache.has(key)) return;
  cache.set(key, docs);
  cachedChars += chars;
  for (const [k, v] of cache) {
    if (cachedChars <= CACHE_CHARS) break;
    cache.delete(k);
    cachedChars -= v.reduce((n, d) => n + d.body.length, 0);
  }
}

const keyOf = (s: StoredSession) => `${s.person_id}/${s.uid}/${s.digest}`;
export const sessionOf = (s: StoredSession) => ({
  uid: s.uid,
  agent: s.agent,
  sessionId: s.session_id,
  projectDir: s.project_dir ?? s.uid,
});

/** A stored session's files and their chunks. */
export async function pushedOf(sql: Sql, s: StoredSession): Promise<PushedFile[]> {
  const files = await sql<{ name: string; role: 'main' | 'subagent'; agent_id: string | null; chunks: string[] }[]>`
    select name, role, agent_id, chunks from files where person_id = ${s.person_id} and uid = ${s.uid} order by seq`;
  return files.map((f) => ({ name: f.name, role: f.role, agentId: f.agent_id, chunks: f.chunks }));
}
