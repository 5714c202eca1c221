import { findInHead } from './read-head.js';

/**
 * Claude Code 2.0.76 resuming a session (`--continue`, `--resume`) opens a new session id first, writes its file
 * empty, and sends its cache warm-ups under it: each warm-up's file (`agent-*.jsonl` beside the sessions) names
 * that id on its first record and the resumed session on its response (corpus 2.0.76, `continuation`). Read by its
 * first record alone, each resume left a session of warm-ups apart from the one it resumed. A flat agent file whose
 * session's file is empty or absent, and whose head names another session of the folder with a file that is not,
 * belongs to that session. Only such files are read again (a warm refresh opens no other).
 */
export function adoptResumeWarmups<F extends WarmupFile>(files: readonly F[]): F[] {
  const mainSize = new Map<string, number>();
  for (const f of files) if (f.role === 'main' && f.sessionId !== undefined) mainSize.set(f.sessionId, f.size);
  return files.map((file) => {
    const id = file.sessionId;
    if (file.role !== 'subagent' || id === undefined || (mainSize.get(id) ?? 0) > 0) return file;
    if (!file.path.slice(file.projectDir.length + 1).startsWith('agent-')) return file; // a session folder's own
    const other = findInHead(file.path, 256 * 1024, new RegExp(`"sessionId":"(?!${escaped(id)}")([^"\\n]+)"`))?.[1];
    return other !== undefined && (mainSize.get(other) ?? 0) > 0 ? { ...file, sessionId: other } : file;
  });
}

/** What of a discovered file this reads (discover.ts's `DiscoveredFile`, not imported: discover.ts imports this). */
interface WarmupFile {
  readonly path: string;
  readonly projectDir: string;
  readonly role: 'main' | 'subagent';
  readonly sessionId: string | undefined;
  readonly size: number;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
