/**
 * Full-text search over full-tier transcripts, kept in PostgreSQL so the team's hits are the laptop's: each pushed
 * transcript is cut into the same searchable documents the local index makes (`docPartsOf`, `indexedText`), and each
 * document's words are the ones FTS5's unicode61 tokenizer sees (`tokensOf`: letters and digits, case and diacritics
 * folded, each CJK character a word). A `tsvector` of those words (no positions) under a GIN index finds the
 * documents holding every word of a query; each is then checked for the query's phrases and prefixes on its tokens,
 * as FTS5 would match them, and its snippet cut as the laptop cuts it.
 */
import { type AgentId, adapterForFile, type TranscriptRecord } from '@agentdash/core';
import { docPartsOf, indexedText, occurrencesOf, type queryPhrases, tokensOf } from '@agentdash/index';
import type { Sql, TxSql } from './db.js';
import { loadTranscripts, type PushedFile } from './transcripts.js';

/** A word longer than this is left out of the `tsvector` (PostgreSQL refuses lexemes over 2 KB). */
const MAX_WORD_CHARS = 500;
const INSERT_BATCH = 500;
const BATCH_CHARS = 4_000_000;

type QueryPhrase = ReturnType<typeof queryPhrases>[number];

export interface DocRow {
  readonly seq: number;
  readonly kind: string;
  readonly call_id: string | null;
  readonly tool: string | null;
  readonly agent_id: string | null;
  readonly ts: string | null;
  readonly body: string;
  readonly words: string[];
}

/** The distinct words of a text as the full-text index has them. */
export function wordsOf(text: string): string[] {
  const words = new Set<string>();
  for (const t of tokensOf(text)) if (t.folded.length <= MAX_WORD_CHARS) words.add(t.folded);
  return [...words];
}

/** The searchable documents of a full-tier session's transcripts, in file and record order. */
export async function docsOf(
  sql: Sql | TxSql,
  session: { readonly uid: string; readonly agent: AgentId; readonly sessionId: string; readonly projectDir: string },
  pushed: readonly PushedFile[],
): Promise<DocRow[]> {
  const transcripts = await loadTranscripts(sql, session, pushed);
  const docs: DocRow[] = [];
  const toolOf = new Map<string, string>();
  for (const file of transcripts.files) {
    const records: TranscriptRecord[] = [];
    try {
      await adapterForFile(file).streamRecords(
        file,
        (event) => {
          if (event.kind === 'record') records.push(event.record);
        },
        { open: transcripts.open },
      );
    } catch {
      // an unreadable transcript is searched as far as it was read (parsing reports, never throws, on the laptop)
    }
    for (const record of records) {
      for (const part of docPartsOf(record)) {
        if (part.kind === 'tool-input' && part.callId && part.tool) toolOf.set(part.callId, part.tool);
        // PostgreSQL text holds no NUL (FTS5 treats it as a separator: no word is lost)
        const body = indexedText(part).replaceAll('\0', ' ');
        docs.push({
          seq: docs.length,
          kind: part.kind,
          call_id: part.callId ?? null,
          tool: part.tool ?? null,
          agent_id: file.agentId ?? null,
          ts: record.timestamp ?? null,
          body,
          words: wordsOf(body),
        });
      }
    }
  }
  // an output's tool is its call's (the laptop's index finds it the same way)
  return docs.map((d) => (d.tool === null && d.call_id ? { ...d, tool: toolOf.get(d.call_id) ?? null } : d));
}

/** Stores a session's documents (inside the transaction that stores the session), a bounded batch at a time. */
export async function insertDocs(tx: TxSql, key: { personId: number; uid: string }, docs: readonly DocRow[]) {
  let start = 0;
  while (start < docs.length) {
    // at most INSERT_BATCH documents and about BATCH_CHARS of text a statement (a document may hold 200,000)
    let end = start;
    let chars = 0;
    while (end < docs.length && end - start < INSERT_BATCH && (end === start || chars < BATCH_CHARS)) {
      chars += (docs[end] as DocRow).body.length;
      end++;
    }
    const batch = tx.json(docs.slice(start, end) as unknown as Parameters<TxSql['json']>[0]);
    await tx`insert into docs (person_id, uid, seq, kind, call_id, tool, agent_id, ts, body, words)
      select ${key.personId}, ${key.uid}, d.seq, d.kind, d.call_id, d.tool, d.agent_id, d.ts, d.body,
        array_to_tsvector(d.words)
      from jsonb_to_recordset(${batch}::jsonb) as d(seq int, kind text, call_id text, tool text, agent_id text,
        ts text, body text, words text[])`;
    start = end;
  }
}

/** A query's phrases as a `tsquery` every candidate matches: each word, a prefix where the query has one. */
export function candidateQuery(phrases: readonly QueryPhrase[]): string {
  const quote = (w: string) => `'${w.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return phrases
    .flatMap(({ words, prefix }) =>
      words.map((w, i) => (prefix && i === words.length - 1 ? `${quote(w)}:*` : quote(w))),
    )
    .join(' & ');
}

/** How often each phrase occurs in `text` (0 for one that does not: then FTS5 would not match it). */
export function phraseCounts(text: string, phrases: readonly QueryPhrase[]): number[] {
  const tokens = tokensOf(text);
  return phrases.map((phrase) => occurrencesOf(tokens, [phrase]).filter((o) => o !== undefined).length);
}
