/** A transcript file's row in `files`, and the keys sessions and stored rows are found by. */
import type { DiscoveredFile, TranscriptRecord } from '@agentdash/core';
import { agentOfRow } from './agent-kind.js';

export interface FileRow {
  readonly id: number;
  readonly path: string;
  readonly project_dir: string;
  readonly role: 'main' | 'subagent';
  readonly session_id: string;
  readonly agent_id: string | null;
  readonly meta_path: string | null;
  /** The agent that wrote the file (`claude`, `codex`, `gemini`). */
  readonly agent: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly ino: number;
  readonly parsed_offset: number;
  readonly next_line: number;
  readonly records: number;
  /** A hash of the first bytes and of the bytes just before `parsed_offset` (see `fingerprintOf`). */
  readonly tail: string;
  /** The file's modification time when records were last appended to it after its first read, else null. */
  readonly appended_ms: number | null;
  /** 1 when the file is gone from disk and is read from the archive. */
  readonly archived: number;
  /** 1 for a headless run's output (core's `DiscoveredFile.headless`): its session yields to a transcript of it. */
  readonly headless: number;
}

/**
 * The key a session is stored under: its project folder plus its session id (`<projectDir>/<id>`), so that two
 * files of the same name in different project folders (say, checkpoint copies all named `full.jsonl`) stay two
 * sessions. A file without a known session id is its own orphan session.
 */
export function sessionKeyOf(file: DiscoveredFile): string {
  const id = file.sessionId ?? `orphan-${file.agentId ?? file.path.split(/[\\/]/).pop() ?? file.path}`;
  return sessionKey(file.projectDir, id);
}

export function sessionKey(projectDir: string, sessionId: string): string {
  return `${projectDir}/${sessionId}`;
}

/** The plain session id of a session key (session ids never hold a slash). */
export function idOfKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/**
 * A session key below its agent home (`HOME_OF`): `<project folder name>/<id>`, the same in a copy of the home kept
 * elsewhere (a backup), and different for two project folders of one home.
 */
export function keyInHome(key: string): string {
  const dir = key.slice(0, key.lastIndexOf('/'));
  return key.slice(Math.max(dir.lastIndexOf('/'), dir.lastIndexOf('\\')) + 1);
}

/** Where a stored call or result is: its file's id, its record's line and byte offset (`calls`, `results`). */
export interface RowPlace {
  readonly fileId: number;
  readonly line: number;
  readonly offset: number;
}

/** The records at stored rows' places, read back from their transcripts (call-payloads.ts). */
export type ReadRecords = (places: readonly RowPlace[]) => Promise<TranscriptRecord[][]>;

/** A stored file as discovery describes it (a file a refresh did not look at, or a session read from its rows). */
export function discoveredOfRow(row: FileRow): DiscoveredFile {
  return {
    path: row.path,
    agent: agentOfRow(row.agent),
    projectDir: row.project_dir,
    role: row.role,
    sessionId: idOfKey(row.session_id),
    agentId: row.agent_id ?? undefined,
    metaPath: row.meta_path ?? undefined,
    size: row.size,
    mtimeMs: row.mtime_ms,
    ino: row.ino,
  };
}
