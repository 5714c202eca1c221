/**
 * A pushed session's timeline: at the full tier its transcripts are rebuilt from their chunks (gunzipped, in
 * memory) and loaded by core's own session loader, so the team timeline is the laptop's; at a lower tier the
 * per-session routes say which tier it was shared at (the dashboard hides what a tier does not hold, never fakes it).
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import {
  type AgentId,
  type ByteSource,
  loadSession as coreLoadSession,
  type DiscoveredFile,
  type Session,
  type SessionFiles,
} from '@agentdash/core';
import { createLocalSessionHost, HttpError, type SessionHost } from '@agentdash/server';
import type { Sql } from '../pg/db.js';

const inflate = promisify(gunzip);

/** Bytes in memory as a `ByteSource`. */
function bufferSource(bytes: Buffer): ByteSource {
  return {
    async read(buffer, offset, length, position) {
      const n = Math.max(0, Math.min(length, bytes.length - position));
      bytes.copy(buffer, offset, position, position + n);
      return { bytesRead: n };
    },
    async close() {},
  };
}

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
    if (session?.tier !== 'full') throw new HttpError(404, 'session not found');
    const files = await sql<FileRow[]>`select name, role, agent_id, chunks from files where uid = ${uid} order by seq`;
    const texts = new Map<string, Buffer>();
    const projectDir = session.project_dir ?? uid;
    const discovered: DiscoveredFile[] = [];
    for (const f of files) {
      const rows = await sql<{ sha256: string; bytes: Buffer }[]>`
        select sha256, bytes from chunks where sha256 = any(${f.chunks}::text[])`;
      const bySha = new Map(rows.map((r) => [r.sha256, r.bytes]));
      const parts = await Promise.all(f.chunks.map(async (sha) => await inflate(bySha.get(sha) ?? Buffer.alloc(0))));
      // a path no disk holds: the loader reads it through `open` only
      const path = `/agentdash-team/${uid}/${f.name}`;
      const text = Buffer.concat(parts);
      texts.set(path, text);
      discovered.push({
        path,
        agent: session.agent,
        projectDir,
        role: f.role,
        sessionId: session.session_id,
        agentId: f.agent_id ?? undefined,
        metaPath: undefined,
        size: text.length,
        mtimeMs: 0,
        ino: 0,
      });
    }
    sizes.set(
      uid,
      [...texts.values()].reduce((n, t) => n + t.length, 0),
    );
    const group: SessionFiles = {
      sessionId: session.session_id,
      projectDir,
      main: discovered.find((f) => f.role === 'main'),
      subagents: discovered.filter((f) => f.role === 'subagent'),
    };
    return await coreLoadSession(group, {
      open: async (path) => {
        const text = texts.get(path);
        if (!text) throw Object.assign(new Error(`ENOENT: not pushed: ${path}`), { code: 'ENOENT' });
        return bufferSource(text);
      },
    });
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
    if (!row) throw new HttpError(404, 'session not found');
    if (row.tier !== 'full') {
      throw new HttpError(
        404,
        `this session was shared at the ${row.tier} tier: its transcript stays on the laptop`,
        'TEAM_TIER_HIDES',
      );
    }
    return uid;
  };
  return {
    ...host,
    detail: async (row) => {
      await full(row.id);
      return await host.detail(row);
    },
    page: async (uid, agent, offset, limit, all) => await host.page(await full(uid), agent, offset, limit, all),
    call: async (uid, callId) => await host.call(await full(uid), callId),
    locate: async (uid, callId) => await host.locate(await full(uid), callId),
    errors: async (uid) => await host.errors(await full(uid)),
    find: async (uid, query) => await host.find(await full(uid), query),
    waterfall: async (uid) => await host.waterfall(await full(uid)),
    exportSession: async (uid, format, summary, assetsDir, redact) =>
      await host.exportSession(await full(uid), format, summary, assetsDir, redact),
    // pushed sessions carry no issues of unreadable files: those stayed on the laptop
    unreadable: async () => [],
  };
}
