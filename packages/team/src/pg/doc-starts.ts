/**
 * A page of a search reads only the documents its rows show. Where each document of a full-tier session starts (the
 * line of its record: a chunk of the session and a byte offset in it, `DocStarts`) is stored in `search_docs` when the
 * session is stored, for agents whose lines decode alone. A page's row then reads, in order, only the documents the
 * positions name (search-postings.ts), each by gunzipping its one chunk and decoding its one line, until one holds the
 * query, instead of parsing the transcript up to its first hit. A session stored before `search_docs` existed (or
 * whose starts could not be told) has them made and stored the first time a page shows it (its transcripts cut
 * whole, once); an agent whose lines need the lines before them (Codex, Gemini…) is read from its start, as before.
 */
import { adapterForFile, type DiscoveredFile, type TranscriptRecord } from '@agentdash/core';
import { docPartsOf, indexedText } from '@agentdash/index';
import type { Sql, TxSql } from './db.js';
import {
  cachedDocs,
  copiesOfRead,
  type DocRow,
  type DocStarts,
  docsWithStarts,
  firstStoredDoc,
  keepDocs,
  locatable,
  type StoredSession,
  sessionOf,
  withCopies,
} from './docs.js';
import { bufferSource, chunkText, type PushedFile, pushedFilePath } from './transcripts.js';

/**
 * Migration 12: one row per full-tier session whose starts are known (a document's start is its position in the
 * arrays, by `seq`); nothing is filled here (the starts come from the transcripts, cut in JavaScript): a session
 * stored before gets its row the first time a page of a search shows it.
 */
export const DOC_STARTS_MIGRATION = `
  create table search_docs (
    person_id bigint not null,
    uid text not null,
    chunk integer[] not null,
    at integer[] not null,
    out_seq integer[] not null,
    out_tool text[] not null,
    primary key (person_id, uid),
    foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
  );`;

/** Sessions and lines a search read through their stored starts, since the server started (tests count them). */
export const startReads = { sessions: 0, lines: 0 };

/** Stores a session's document starts (in the transaction that stores the session, or the one that made them). */
export function insertDocStarts(
  tx: TxSql,
  key: { personId: number; uid: string },
  starts: DocStarts,
): Promise<unknown> {
  return tx`insert into search_docs (person_id, uid, chunk, at, out_seq, out_tool)
    values (${key.personId}, ${key.uid}, ${starts.chunk}::int[], ${starts.at}::int[], ${starts.outSeq}::int[],
      ${starts.outTool}::text[])
    on conflict do nothing`.execute();
}

/**
 * The first document of `docs` (by `seq`, in order) that `test` accepts, as `firstStoredDoc` finds it, reading only
 * those documents when the session's starts are stored (made now when they are not). `starts` false: read from the
 * transcript's start, as before `search_docs` (a team app built with `searchStarts: false`; tests compare the two).
 */
export async function firstShownDoc(
  sql: Sql,
  s: StoredSession,
  test: (doc: DocRow) => boolean,
  docs: ReadonlySet<number> | undefined,
  starts = true,
): Promise<boolean> {
  const cached = cachedDocs(s);
  if (cached) return cached.some(test);
  if (docs === undefined || !starts || !locatable(s.agent)) return await firstStoredDoc(sql, s, test, docs);
  const stored = await storedStarts(sql, s);
  if (stored === 'gone') return await firstStoredDoc(sql, s, test, docs);
  if (stored.starts) return await firstLocated(sql, s, stored.files, stored.starts, docs, test);
  // first need: the whole transcript cut once, its starts stored for the next pages, its documents kept
  const made = await docsWithStarts(sql, sessionOf(s), stored.files);
  if (made.starts) await storeStarts(sql, s, made.starts);
  keepDocs(s, made.docs);
  return made.docs.some(test);
}

interface Stored {
  readonly files: PushedFile[];
  readonly starts: DocStarts | undefined;
}

/** The session's files and stored starts, read together; 'gone' when it was pushed again since it was found. */
async function storedStarts(sql: Sql, s: StoredSession): Promise<Stored | 'gone'> {
  const [row] = await sql<
    {
      files: { name: string; role: 'main' | 'subagent'; agent_id: string | null; chunks: string[] }[] | null;
      chunk: number[] | null;
      at: number[] | null;
      out_seq: number[] | null;
      out_tool: string[] | null;
    }[]
  >`select d.chunk, d.at, d.out_seq, d.out_tool,
      (select json_agg(json_build_object('name', f.name, 'role', f.role, 'agent_id', f.agent_id, 'chunks', f.chunks)
        order by f.seq) from files f where f.person_id = s.person_id and f.uid = s.uid) as files
    from sessions s left join search_docs d on d.person_id = s.person_id and d.uid = s.uid
    where s.person_id = ${s.person_id} and s.uid = ${s.uid} and s.digest = ${s.digest}`;
  if (!row) return 'gone';
  const files = (row.files ?? []).map((f) => ({ name: f.name, role: f.role, agentId: f.agent_id, chunks: f.chunks }));
  const { chunk, at, out_seq: outSeq, out_tool: outTool } = row;
  const starts = chunk && at && outSeq && outTool ? { chunk, at, outSeq, outTool } : undefined;
  return { files, starts };
}

/** Stores starts made on first need, unless the session was pushed again meanwhile (its push stores its own). */
async function storeStarts(sql: Sql, s: StoredSession, starts: DocStarts): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`agentdash-session:${s.person_id}:${s.uid}`}, 0))`;
    const [same] = await tx`select 1 from sessions
      where person_id = ${s.person_id} and uid = ${s.uid} and digest = ${s.digest} and tier = 'full'`;
    if (same) await insertDocStarts(tx, { personId: s.person_id, uid: s.uid }, starts);
  });
}

/** Thrown from a line's record callback once the line is read. */
const STOP = Symbol('stop');
const NEWLINE = Buffer.from('\n');

/** Reads the documents of `docs` one line each, in order, until `test` accepts one. */
async function firstLocated(
  sql: Sql,
  s: StoredSession,
  files: readonly PushedFile[],
  starts: DocStarts,
  docs: ReadonlySet<number>,
  test: (doc: DocRow) => boolean,
): Promise<boolean> {
  startReads.sessions += 1;
  const chunks = files.flatMap((file) => file.chunks.map((sha256) => ({ file, sha256 })));
  const texts = new Map<number, Promise<Buffer>>();
  const textOf = (k: number, sha256: string): Promise<Buffer> => {
    // behind one newline (lineRecords)
    const text = texts.get(k) ?? chunkText(sql, sha256).then((t) => Buffer.concat([NEWLINE, t]));
    texts.set(k, text);
    return text;
  };
  const outTools = new Map(starts.outSeq.map((seq, i) => [seq, starts.outTool[i] ?? null]));
  for (const seq of [...docs].sort((a, b) => a - b)) {
    const k = starts.chunk[seq];
    const at = starts.at[seq];
    const where = k === undefined ? undefined : chunks[k];
    if (where === undefined || at === undefined) continue;
    // the line's first document: the parts before this one are the same line's
    let first = seq;
    while (first > 0 && starts.chunk[first - 1] === k && starts.at[first - 1] === at) first--;
    const records = await lineRecords(s, where.file, await textOf(k as number, where.sha256), at);
    // the line's copies too, after their holder: a read of the whole file took them, or the first of them, there
    const copies = copiesOfRead(adapterForFile(fileOf(s, where.file, 0)), files);
    const found = records
      .flatMap((r) => withCopies(r, where.file.agentId ?? null, copies))
      .flatMap(({ record, agentId }) => docPartsOf(record).map((part) => ({ record, agentId, part })))[seq - first];
    if (!found) continue;
    const { record, agentId, part } = found;
    const doc: DocRow = {
      seq,
      kind: part.kind,
      call_id: part.callId ?? null,
      tool: part.tool ?? outTools.get(seq) ?? null,
      agent_id: agentId,
      ts: record.timestamp ?? null,
      body: indexedText(part).replaceAll('\0', ' '),
    };
    if (test(doc)) return true;
  }
  return false;
}

/** A pushed file of a stored session as its adapter reads it (`size` bytes). */
const fileOf = (s: StoredSession, pushed: PushedFile, size: number): DiscoveredFile => ({
  path: pushedFilePath(s.uid, pushed.name),
  agent: s.agent,
  projectDir: s.project_dir ?? s.uid,
  role: pushed.role,
  sessionId: s.session_id,
  agentId: pushed.agentId ?? undefined,
  metaPath: undefined,
  size,
  mtimeMs: 0,
  ino: 0,
});

/**
 * The records of the line at `at` in a chunk's text, decoded by the session's adapter. `bytes` is the text behind one
 * newline, so the line is never the file's first (whose byte-order mark only the file's start may strip) and a
 * read at it starts a line, as in the whole file.
 */
async function lineRecords(
  s: StoredSession,
  pushed: PushedFile,
  bytes: Buffer,
  at: number,
): Promise<TranscriptRecord[]> {
  startReads.lines += 1;
  const file = fileOf(s, pushed, bytes.length);
  const records: TranscriptRecord[] = [];
  try {
    await adapterForFile(file).streamRecords(
      file,
      (event) => {
        if (event.kind !== 'record') return;
        if (event.record.loc?.offset !== at + 1) throw STOP;
        records.push(event.record);
      },
      { open: async () => bufferSource(bytes), startOffset: at + 1, chunkBytes: 64 * 1024 },
    );
  } catch {
    // STOP, or a line that could not be read: its records as far as read (parsing reports, never throws)
  }
  return records;
}
