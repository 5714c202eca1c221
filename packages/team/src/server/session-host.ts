/**
 * A pushed session's timeline: at the full tier its transcripts are rebuilt from their chunks (gunzipped, in
 * memory) and loaded by core's own session loader, so the team timeline is the laptop's; at a lower tier the
 * per-session routes say which tier it was shared at (the dashboard hides what a tier does not hold, never fakes it).
 */
import {
  type AgentId,
  loadSession as coreLoadSession,
  type DiscoveredFile,
  type Session,
  type SessionFiles,
} from '@agentdash/core';
import { createLocalSessionHost, HttpError, type SessionHost, sessionNotFound } from '@agentdash/server';
import type { Sql } from '../pg/db.js';
import { loadTranscripts, pushedFilePath } from '../pg/transcripts.js';

interface FileRow {
  readonly name: string;
  readonly role: 'main' | 'subagent';
  readonly agent_id: string | null;
  readonly chunks: string[];
}

/** The per-session routes over the team database. */
export function teamSessionHost(sql: Sql): SessionHost {
  const sizes = new Map<string, number>();

  const loadSession = async (uid: string): Promise<Session> => {
    const [session] = await sql<{ tier: string; agent: AgentId; session_id: string; project_dir: string | null }[]>`
      select tier, agent, session_id, project_dir from sessions where uid = ${uid}`;
    if (session?.tier !== 'full') throw sessionNotFound();
    const files = await sql<FileRow[]>`select name, role, agent_id, chunks from files where uid = ${uid} order by seq`;
    const projectDir = session.project_dir ?? uid;
    const transcripts = await loadTranscripts(
      sql,
      { uid, agent: session.agent, sessionId: session.session_id, projectDir },
      files.map((f) => ({ name: f.name, role: f.role, agentId: f.agent_id, chunks: f.chunks })),
    );
    sizes.set(uid, transcripts.size);
    const discovered = transcripts.files;
    const group: SessionFiles = {
      sessionId: session.session_id,
      projectDir,
      main: discovered.find((f) => f.role === 'main'),
      subagents: discovered.filter((f) => f.role === 'subagent'),
    };
    return await coreLoadSession(group, { open: transcripts.open });
  };

  const host = createLocalSessionHost({
    loadSession,
    sessionFiles: (uid) => {
      const size = sizes.get(uid);
      if (size === undefined) return undefined;
      return { sessionId: uid, projectDir: '', main: { size } as DiscoveredFile, subagents: [] };
    },
  });
  /** A 404 naming the tier when the session holds no transcript (the view cache would only say "not found"). */
  const full = async (uid: string): Promise<string> => {
    const [row] = await sql<{ tier: string }[]>`select tier from sessions where uid = ${uid}`;
    if (!row) throw sessionNotFound();
    if (row.tier !== 'full') {
      throw new HttpError(
        404,
        `this session was shared at the ${row.tier} tier: its transcript stays on the laptop`,
        'TEAM_TIER_HIDES',
      );
    }
    return uid;
  };
  // Every method named (no spread of `host`): a per-session route added to the host is a type error here until it
  // says whether a lower tier may answer it.
  return {
    detail: async (row) => {
      await full(row.id);
      return await host.detail(row);
    },
    // a subagent the laptop keyed by its file (no agent id) is named by the file's pushed name (build.ts), its thread
    // here by the path that file is read at
    page: async (uid, agent, offset, limit, all) => {
      const id = await full(uid);
      const page = await host.page(id, agent, offset, limit, all);
      if (page !== undefined || agent === undefined) return page;
      return await host.page(id, pushedFilePath(id, agent), offset, limit, all);
    },
    call: async (uid, callId, chars) => await host.call(await full(uid), callId, chars),
    locate: async (uid, callId) => await host.locate(await full(uid), callId),
    errors: async (uid) => await host.errors(await full(uid)),
    find: async (uid, query) => await host.find(await full(uid), query),
    waterfall: async (uid) => await host.waterfall(await full(uid)),
    files: async (uid) => await host.files(await full(uid)),
    exportSession: async (uid, format, summary, assetsDir, redact) =>
      await host.exportSession(await full(uid), format, summary, assetsDir, redact),
    // a pushed session carries its issues' count only (queries.ts): their files and lines stayed on the laptop
    readIssues: async () => [],
    isLoaded: (uid) => host.isLoaded(uid),
    invalidate: (uid) => host.invalidate(uid),
    close: () => host.close(),
  };
}
