import { missingMainIssue, type TitleSource, threadTitleOf } from '@agentdash/core';
import type Database from 'better-sqlite3';
import { DEFAULT_AGENT } from '../agent-kind.js';
import { adapterForFile, agentOfRow } from '../agents.js';
import { idOfKey } from '../file-row.js';
import { ERROR_COUNTS } from '../read/scope.js';
import { prepared, preparedOnUse } from '../schema/prepared.js';
import { hasCopies } from './copy-rows.js';
import { EMPTY_SCAN, SessionScanner } from './session-scan.js';
import { SessionUsageUpdater } from './session-usage.js';
import { WarmupFiles } from './warmup-files.js';

/** A session's file as `recompute` reads it. */
interface SessionFile {
  readonly id: number;
  readonly role: string;
  readonly project_dir: string;
  readonly agent_id: string | null;
  readonly agent: string;
}

/**
 * The sessions whose main file is missing (their `missing_main_file` issue, recomputed with the session), before a
 * refresh: those it finds (`newlyMissingMain`) are among its new issues, with the parse issues of the files it read.
 */
export function sessionsMissingMain(db: Database.Database): Set<string> {
  const sql = `SELECT DISTINCT f.session_id FROM issues i JOIN files f ON f.id = i.file_id
    WHERE i.code = 'missing_main_file'`;
  return new Set(prepared(db, sql, 'pluck').all() as string[]);
}

/** How many sessions are missing their main file now that were not among `before` (`sessionsMissingMain`). */
export function newlyMissingMain(db: Database.Database, before: ReadonlySet<string>): number {
  return [...sessionsMissingMain(db)].filter((sid) => !before.has(sid)).length;
}

/** Recomputes a session's summary row from the stored rows of its files. */
export class SessionUpdater {
  private readonly s;
  private readonly usage: SessionUsageUpdater;
  private readonly scanner: SessionScanner;
  private readonly warmups: WarmupFiles;
  constructor(private readonly db: Database.Database) {
    this.warmups = new WarmupFiles(db);
    this.scanner = new SessionScanner(db);
    this.usage = new SessionUsageUpdater(
      db,
      (sid) => this.scanner.scan(this.filesOf(sid)),
      (sid) => this.warmups.agentIds(sid),
    );
    this.s = preparedOnUse({
      // In the order core reads them: main first ('main' < 'subagent'), then by path.
      files: () =>
        db.prepare('SELECT id, role, project_dir, agent_id, agent FROM files WHERE session_id = ? ORDER BY role, path'),
      deleteSession: () => db.prepare('DELETE FROM sessions WHERE id = ?'),
      // The calls this session owns: a call copied into a fork or resume counts once, for the session of its
      // first occurrence in its agent home (as in statistics; a copy in another home is another history).
      calls: () =>
        db.prepare(
          `SELECT COUNT(*) AS calls, ${ERROR_COUNTS}
         FROM calls cf JOIN files cff ON cff.id = cf.file_id
         WHERE cff.session_id = @sid AND cf.has_result IS NOT NULL`,
        ),
      // The subagents kept only as copies in the session's files (copy-rows.ts: none of them has a file here).
      copiedAgents: () =>
        db
          .prepare(
            `SELECT COUNT(DISTINCT r.copy_of) FROM records r INDEXED BY records_copies JOIN files f ON f.id = r.file_id
           WHERE f.session_id = ? AND r.copy_of IS NOT NULL`,
          )
          .pluck(),
      titles: () =>
        db.prepare(
          `SELECT t.source, t.title, t.leaf_uuid FROM titles t JOIN files f ON f.id = t.file_id
         WHERE f.session_id = ? AND f.role = 'main' AND t.source <> 'first-prompt' AND t.title <> '' ORDER BY t.line`,
        ),
      hasUuid: () =>
        db
          .prepare(
            `SELECT 1 FROM records r JOIN files f ON f.id = r.file_id WHERE f.session_id = ? AND r.uuid = ? LIMIT 1`,
          )
          .pluck(),
      // The first prompt that can title the session (core's `promptTitleOf`, stored at import).
      firstPrompt: () =>
        db
          .prepare(
            `SELECT t.title FROM titles t JOIN files f ON f.id = t.file_id
           WHERE f.session_id = @sid AND f.role = 'main' AND t.source = 'first-prompt' ORDER BY t.line LIMIT 1`,
          )
          .pluck(),
      // The records of subagents' threads: their files' own, and the copies files hold (copy-rows.ts, found through
      // `records_copies`: the copy rows alone).
      threadPrompts: () =>
        db.prepare(
          `SELECT text, ms FROM (
           SELECT r.prompt_text AS text, r.ts_ms AS ms, f.path, r.line FROM records r JOIN files f ON f.id = r.file_id
           WHERE f.session_id = @sid AND f.role = 'subagent' AND r.shown = 1 AND r.prompt_text IS NOT NULL
             AND r.copy_of IS NULL
           UNION ALL
           SELECT r.prompt_text, r.ts_ms, f.path, r.line FROM records r INDEXED BY records_copies
             JOIN files f ON f.id = r.file_id
           WHERE f.session_id = @sid AND r.copy_of IS NOT NULL AND r.shown = 1 AND r.prompt_text IS NOT NULL)
         ORDER BY path, line`,
        ),
      // The parse issues stored with its files, plus those pairing finds (what the header and core's pairing count,
      // read from the rows): a second result of an id in one record or file, the same id's result in two of its
      // files, a result whose call is in none of them.
      issues: () =>
        db
          .prepare(
            `SELECT
             (SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE f.session_id = @sid)
           + (SELECT coalesce(sum(r.extra_results), 0) FROM records r JOIN files f ON f.id = r.file_id
              WHERE f.session_id = @sid)
           + (SELECT COUNT(*) - COUNT(DISTINCT res.tool_use_id) FROM results res JOIN files f ON f.id = res.file_id
              WHERE f.session_id = @sid)
           + (SELECT COUNT(DISTINCT res.tool_use_id) FROM results res JOIN files f ON f.id = res.file_id
              WHERE f.session_id = @sid AND NOT EXISTS (SELECT 1 FROM calls c JOIN files cf ON cf.id = c.file_id
                WHERE cf.session_id = @sid AND c.tool_use_id = res.tool_use_id))`,
          )
          .pluck(),
      dropMissingMain: () =>
        db.prepare(
          `DELETE FROM issues WHERE code = 'missing_main_file'
         AND file_id IN (SELECT id FROM files WHERE session_id = ?)`,
        ),
      addMissingMain: () =>
        db.prepare("INSERT INTO issues (file_id, line, code, message) VALUES (?, 0, 'missing_main_file', ?)"),
      upsert: () =>
        db.prepare(
          `INSERT OR REPLACE INTO sessions (id, session_id, project_dir, project_path, title, title_source, started_at, ended_at,
           started_ms, ended_ms, prompts, messages, tool_calls, errors, expected_errors, versions, models, git_branch,
           issues, usage_detail, time, agent, subagents, warmups, api_errors, api_retries)
         VALUES (@id, @session_id, @project_dir, @project_path, @title, @title_source, @started_at, @ended_at, @started_ms,
           @ended_ms, @prompts, @messages, @tool_calls, @errors, @expected_errors, @versions, @models, @git_branch,
           @issues, @usage_detail, @time, @agent, @subagents, @warmups, @api_errors, @api_retries)`,
        ),
    });
  }

  /**
   * After the sessions of a write are recomputed: each response several sessions hold counted for its owner alone
   * (`SessionUsageUpdater.settle`).
   */
  settle(): void {
    this.usage.settle();
  }

  /** A session's files, in the order core reads them. */
  private filesOf(sid: string): SessionFile[] {
    return this.s.files.all(sid) as SessionFile[];
  }

  recompute(sid: string): void {
    const files = this.filesOf(sid);
    if (files.length === 0) {
      this.s.deleteSession.run(sid);
      this.usage.update(sid, EMPTY_SCAN, 'unique');
      return;
    }
    const main = files.find((f) => f.role === 'main') ?? files[0];
    // A session folder whose main file is absent (never copied, or deleted) is still a session: say so.
    this.s.dropMissingMain.run(sid);
    const first = files[0];
    if (!files.some((f) => f.role === 'main') && first !== undefined) {
      const issue = missingMainIssue(
        adapterForFile({ agent: agentOfRow(first.agent) }),
        idOfKey(sid),
        first.project_dir,
        files.length,
      );
      // stored on the first subagent file: the issue's own file is one the index does not hold
      this.s.addMissingMain.run(first.id, `${issue.message} (${issue.file})`);
    }
    const p = { sid };
    // Times, counts, versions, models, directory and branch: one pass over the session's records.
    const scan = this.scanner.scan(files);
    const calls = this.s.calls.get(p) as { calls: number; errors: number; expectedErrors: number };
    // The title by core's rule too: the main file's title records and summaries, then its first titling prompt.
    for (const row of this.s.titles.all(sid) as { source: TitleSource; title: string; leaf_uuid: string | null }[]) {
      scan.summary.addTitle({ source: row.source, title: row.title, leaf: row.leaf_uuid ?? undefined });
    }
    // Already cut by `promptTitleOf` (at a word boundary, never through a secret): cutting it again here kept the
    // first part of a secret crossing the cut, which exports then no longer recognised.
    const prompt = (this.s.firstPrompt.get({ sid }) as string | undefined)?.trim();
    if (prompt) scan.summary.addTitle({ source: 'first-prompt', title: prompt });
    // No prompt in the main file (or no main file): the earliest titling prompt of a subagent's file or copied
    // thread (core's `addThreadPrompt`), files in path order, lines in order.
    else if (files.some((f) => f.role === 'subagent' || hasCopies(this.db, f.id))) {
      for (const row of this.s.threadPrompts.all({ sid }) as { text: string; ms: number | null }[]) {
        const title = threadTitleOf(row.text);
        if (title !== undefined) scan.summary.addThreadPrompt(title, row.ms ?? undefined);
      }
    }
    const summary = scan.summary.finish((uuid) => this.s.hasUuid.get(sid, uuid) !== undefined);
    // Usage and time: each API response once (sessions.usage_detail). Written with the rest of the row: one
    // statement per session, not three.
    const ids = adapterForFile({ agent: agentOfRow(main?.agent) }).capabilities.responseIds;
    // the session's warm-up files, read once: their count, and their agent ids for the usage detail
    const warmupIds = this.warmups.of(sid);
    const usage = this.usage.update(sid, scan, ids, this.warmups.agentIdsIn(warmupIds));
    const warmups = warmupIds.length;
    this.s.upsert.run({
      id: sid,
      session_id: idOfKey(sid),
      project_dir: main?.project_dir ?? '',
      project_path: summary.projectPath ?? null,
      title: summary.title ?? null,
      title_source: summary.titleSource ?? null,
      started_at: scan.stampText(summary.startedAt),
      ended_at: scan.stampText(summary.endedAt),
      started_ms: summary.startedMs ?? null,
      ended_ms: summary.endedMs ?? null,
      prompts: summary.prompts,
      messages: summary.prompts + summary.responses,
      tool_calls: calls.calls,
      errors: calls.errors,
      expected_errors: calls.expectedErrors,
      api_errors: summary.failedRequests,
      api_retries: summary.retriedRequests,
      versions: JSON.stringify(summary.versions),
      models: JSON.stringify(summary.models),
      git_branch: summary.gitBranch ?? null,
      issues: this.s.issues.get({ sid }) as number,
      usage_detail: usage.detail,
      time: usage.time,
      // A session is its files' agent's (the main file's, else the first subagent file's).
      agent: first?.agent ?? DEFAULT_AGENT,
      // Its subagents as `loadSession` finds them: its subagent files, the runs written inside its main file, and
      // those kept only as copies in its files (core's `EmbeddedThreads`); not the client's cache warm-ups.
      subagents:
        files.filter((f) => f.role === 'subagent').length -
        warmups +
        scan.sidechainRuns +
        (this.s.copiedAgents.get(sid) as number),
      warmups,
    });
  }
}
