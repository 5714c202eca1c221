/** A stored file (`files`) as discovery describes it, for its adapter to read records of it back. */
import type { DiscoveredFile } from '@agentdash/core';
import { agentOfRow } from '../agents.js';
import { idOfKey } from '../file-row.js';

/** The columns of a stored file that reading its records back needs (`DOC_FILE_COLUMNS`). */
export interface DocFileRow {
  file_id: number;
  file: string;
  session_id: string;
  project_dir: string;
  role: 'main' | 'subagent';
  file_agent_id: string | null;
  file_agent: string | null;
  size: number;
  mtime_ms: number;
  ino: number;
}

/** Select these over `files f` for `fileOfRow`. */
export const DOC_FILE_COLUMNS = `f.id AS file_id, f.path AS file, f.session_id, f.project_dir, f.role,
  f.agent_id AS file_agent_id, f.agent AS file_agent, f.size, f.mtime_ms, f.ino`;

/** A stored file as discovery describes it, for its adapter to read it again. */
export function fileOfRow(r: DocFileRow): DiscoveredFile {
  return {
    path: r.file,
    agent: agentOfRow(r.file_agent),
    projectDir: r.project_dir,
    role: r.role,
    sessionId: idOfKey(r.session_id),
    agentId: r.file_agent_id ?? undefined,
    metaPath: undefined,
    size: r.size,
    mtimeMs: r.mtime_ms,
    ino: r.ino,
  };
}
