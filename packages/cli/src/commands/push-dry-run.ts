/**
 * `agentdash push --dry-run` (and `--payloads`): what a push would send, built as a push builds it and sent nowhere.
 * The team server is asked only who the token is (its salt hashes the projects at the summary tier).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Chunk, type PlannedSession, type PushOptions, push, type ShareTier } from '@agentdash/team';
import type { Context } from '../context.js';
import { formatBytes, formatCount, plural, terminalText } from '../format.js';
import type { PushDryRunJson, PushDryRunProjectJson } from '../output/json-types.js';
import { renderTable } from '../table.js';
import { safeJsonText, writeJson } from './common.js';

/** The bytes a session's payload takes as JSON, and its transcripts' (the full tier's files, sent as chunks). */
function sizesOf(planned: PlannedSession): { payloadBytes: number; transcriptBytes: number } {
  const { payload } = planned;
  return {
    payloadBytes: Buffer.byteLength(JSON.stringify(payload)),
    transcriptBytes: 'files' in payload ? payload.files.reduce((n, f) => n + f.bytes, 0) : 0,
  };
}

/**
 * Writes each transcript chunk a dry run hands it into `dir` as `<sha256>.txt`, its text as it would leave (once per
 * name); tells how many at the end.
 */
function chunkWriter(ctx: Context, dir: string): { onChunk: (chunk: Chunk) => void; done: () => void } {
  mkdirSync(dir, { recursive: true });
  let written = 0;
  return {
    onChunk: (chunk) => {
      const path = join(dir, `${chunk.sha256}.txt`);
      if (existsSync(path)) return;
      writeFileSync(path, gunzipSync(chunk.gz));
      written += 1;
    },
    done: () => ctx.note(`${plural(written, 'transcript chunk')} written to ${terminalText(resolve(dir))}`),
  };
}

/**
 * Builds every session's payload at its tier and tells, project by project, what would leave; with `payloads`, each
 * payload itself as one JSON line on stdout, written as it is built (the report then goes to stderr); with
 * `chunksDir`, each full-tier transcript chunk's text too, into that folder (`chunkWriter`).
 */
export async function dryRun(
  ctx: Context,
  url: string,
  options: Omit<PushOptions, 'index' | 'dryRun'>,
  payloads: boolean,
  chunksDir?: string,
): Promise<void> {
  const chunks = chunksDir === undefined ? undefined : chunkWriter(ctx, chunksDir);
  const projects = new Map<string, { -readonly [K in keyof PushDryRunProjectJson]: PushDryRunProjectJson[K] }>();
  const onSession = (planned: PlannedSession) => {
    const sizes = sizesOf(planned);
    if (payloads) {
      const line = { session: planned.summary.ref, tier: planned.tier, payload: planned.payload };
      ctx.io.stdout.write(`${safeJsonText(JSON.stringify(line))}\n`);
    }
    const project = planned.summary.projectPath ?? planned.summary.projectDir;
    const key = `${project}\u0000${planned.tier}\u0000${planned.rule ?? ''}`;
    const row = projects.get(key) ?? {
      project,
      tier: planned.tier,
      rule: planned.rule ?? null,
      sessions: 0,
      payloadBytes: 0,
      transcriptBytes: 0,
    };
    row.sessions += 1;
    row.payloadBytes += sizes.payloadBytes;
    row.transcriptBytes += sizes.transcriptBytes;
    projects.set(key, row);
  };
  const report = await push({
    index: await ctx.openIndex(),
    ...options,
    dryRun: onSession,
    ...(chunks === undefined ? {} : { onDryRunChunk: chunks.onChunk }),
  });
  chunks?.done();
  const rows = [...projects.values()].sort(
    (a, b) => a.project.localeCompare(b.project) || a.tier.localeCompare(b.tier),
  );
  const out: PushDryRunJson = {
    url,
    dryRun: true,
    person: report.person,
    device: report.device,
    sessions: report.sessions,
    forgotten: report.forgotten,
    tiers: report.tiers,
    lowered: report.lowered,
    skipped: report.skipped,
    unmatchedRules: report.unmatchedRules,
    payloadBytes: rows.reduce((n, r) => n + r.payloadBytes, 0),
    transcriptBytes: rows.reduce((n, r) => n + r.transcriptBytes, 0),
    projects: rows,
  };
  for (const { session, reason } of report.skipped)
    ctx.note(`would not push: session ${terminalText(session)} (${reason})`);
  for (const { session, reason } of report.lowered)
    ctx.note(`would send at the metadata tier: session ${terminalText(session)} (${terminalText(reason)})`);
  for (const rule of report.unmatchedRules)
    ctx.note(
      `warning: --share-project ${terminalText(rule)} names no session: its project would go at the default tier`,
    );
  if (payloads) {
    ctx.note(dryRunTotal(out));
    return;
  }
  if (ctx.json) {
    writeJson(ctx, out);
    return;
  }
  ctx.io.stdout.write(dryRunText(ctx, out));
}

const TIER_ORDER: readonly ShareTier[] = ['summary', 'metadata', 'full'];

/** The last line: the whole of what would leave, and that nothing did. */
function dryRunTotal(out: PushDryRunJson): string {
  const tiers = TIER_ORDER.filter((t) => out.tiers[t] > 0).map((t) => `${formatCount(out.tiers[t])} ${t}`);
  return `dry run, nothing sent: would push to ${terminalText(out.url)} as ${terminalText(out.person)}${
    out.device ? `/${terminalText(out.device)}` : ''
  }: ${plural(out.sessions, 'session')} (${tiers.length > 0 ? tiers.join(', ') : 'none'}${
    out.forgotten > 0 ? `; ${formatCount(out.forgotten)} forgotten left out` : ''
  }): ${formatBytes(out.payloadBytes)} of session data${
    out.transcriptBytes > 0 ? ` and ${formatBytes(out.transcriptBytes)} of transcripts (sent compressed)` : ''
  }, before the server says which it already holds`;
}

/** Each project's tier and what its sessions would send (a table to the terminal's width), then the whole. */
function dryRunText(ctx: Context, out: PushDryRunJson): string {
  const c = ctx.color;
  const rows = out.projects.map((r) => [
    r.project,
    r.tier,
    formatCount(r.sessions),
    `${formatBytes(r.payloadBytes)}${r.transcriptBytes > 0 ? ` + ${formatBytes(r.transcriptBytes)} of transcripts` : ''}`,
    r.rule === null ? 'default (--share)' : `--share-project ${r.rule}`,
  ]);
  const table = renderTable(
    [
      { header: 'PROJECT', min: 24, cut: 'start' },
      { header: 'TIER' },
      { header: 'SESSIONS', align: 'right' },
      { header: 'WOULD SEND' },
      { header: 'BECAUSE', drop: 1 },
    ],
    rows,
    { width: ctx.width, headerStyle: c.bold },
  );
  return `${table}${dryRunTotal(out)}\n`;
}
