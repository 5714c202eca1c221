import type Database from 'better-sqlite3';
import type { UsageSummary } from './types.js';

const emptyUsage = (): UsageSummary => ({
  responses: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

/**
 * Where a record comes in core's reading order (main file first, then subagent files by path, then line): files are
 * imported newest first, so file ids do not say it.
 */
const FIRST_SEEN = `(f.role <> 'main') || char(0) || f.path || char(0) || printf('%012d', r.line)`;

/** Recomputes a session's summary row from the stored rows of its files. */
export class SessionUpdater {
  private readonly s;
  constructor(db: Database.Database) {
    const ofSession = 'JOIN files f ON f.id = r.file_id WHERE f.session_id = @sid';
    this.s = {
      files: db.prepare('SELECT id, role, project_dir FROM files WHERE session_id = ? ORDER BY role, path'),
      deleteSession: db.prepare('DELETE FROM sessions WHERE id = ?'),
      cwd: db
        .prepare(
          `SELECT r.cwd FROM records r ${ofSession} AND r.cwd IS NOT NULL
           ORDER BY (f.role <> 'main'), r.is_sidechain, f.path, r.line LIMIT 1`,
        )
        .pluck(),
      times: db.prepare(
        `SELECT (SELECT r.ts FROM records r ${ofSession} AND r.ts_ms IS NOT NULL ORDER BY r.ts_ms ASC LIMIT 1) AS first,
                (SELECT r.ts FROM records r ${ofSession} AND r.ts_ms IS NOT NULL ORDER BY r.ts_ms DESC LIMIT 1) AS last,
                (SELECT MIN(r.ts_ms) FROM records r ${ofSession}) AS first_ms,
                (SELECT MAX(r.ts_ms) FROM records r ${ofSession}) AS last_ms`,
      ),
      versions: db
        .prepare(
          `SELECT r.version FROM records r ${ofSession} AND r.version IS NOT NULL AND r.version <> ''
           GROUP BY r.version ORDER BY MIN(${FIRST_SEEN})`,
        )
        .pluck(),
      models: db
        .prepare(
          `SELECT r.model FROM records r ${ofSession} AND r.kind = 'assistant' AND r.is_synthetic = 0
           AND r.model IS NOT NULL AND r.model <> '' GROUP BY r.model ORDER BY MIN(${FIRST_SEEN})`,
        )
        .pluck(),
      prompts: db
        .prepare(`SELECT COUNT(DISTINCT r.uuid) FROM records r ${ofSession} AND r.is_prompt = 1 AND r.is_sidechain = 0`)
        .pluck(),
      responses: db
        .prepare(
          `SELECT COUNT(DISTINCT coalesce(r.message_id, r.uuid)) FROM records r ${ofSession}
           AND r.kind = 'assistant' AND r.is_synthetic = 0`,
        )
        .pluck(),
      calls: db.prepare(
        `SELECT COUNT(*) AS calls, COALESCE(SUM(cf.is_error), 0) AS errors,
                COALESCE(SUM(cf.severity = 'expected'), 0) AS expected
         FROM (SELECT DISTINCT c.tool_use_id FROM calls c JOIN files f ON f.id = c.file_id WHERE f.session_id = @sid) ids
         LEFT JOIN call_facts cf ON cf.tool_use_id = ids.tool_use_id`,
      ),
      titles: db.prepare(
        `SELECT t.source, t.title, t.leaf_uuid FROM titles t JOIN files f ON f.id = t.file_id
         WHERE f.session_id = ? AND f.role = 'main' AND t.title <> '' ORDER BY t.line`,
      ),
      hasUuid: db
        .prepare(
          `SELECT 1 FROM records r JOIN files f ON f.id = r.file_id WHERE f.session_id = ? AND r.uuid = ? LIMIT 1`,
        )
        .pluck(),
      // The first typed prompt or slash-command line of the main thread.
      firstPrompt: db
        .prepare(
          `SELECT body FROM (
             SELECT d.line AS line, doc_text(d.body) AS body FROM docs d JOIN files f ON f.id = d.file_id
             WHERE f.session_id = @sid AND f.role = 'main' AND d.kind = 'prompt' AND d.agent_id IS NULL
             UNION ALL
             SELECT t.line, t.title FROM titles t JOIN files f ON f.id = t.file_id
             WHERE f.session_id = @sid AND f.role = 'main' AND t.source = 'command'
           ) WHERE trim(body) <> '' ORDER BY line LIMIT 1`,
        )
        .pluck(),
      gitBranch: db
        .prepare(
          `SELECT r.git_branch FROM records r ${ofSession} AND f.role = 'main' AND r.is_sidechain = 0
           AND r.git_branch IS NOT NULL AND r.git_branch <> '' ORDER BY r.line DESC LIMIT 1`,
        )
        .pluck(),
      issues: db
        .prepare('SELECT COUNT(*) FROM issues i JOIN files f ON f.id = i.file_id WHERE f.session_id = ?')
        .pluck(),
      usage: db.prepare(
        `SELECT r.model AS model, r.input_tokens AS i, MAX(r.output_tokens) AS o,
                r.cache_creation_tokens AS cc, r.cache_read_tokens AS cr
         FROM records r ${ofSession} AND r.kind = 'assistant' AND r.is_synthetic = 0 AND r.model IS NOT NULL
           AND r.output_tokens IS NOT NULL
         GROUP BY coalesce(r.message_id, r.uuid)`,
      ),
      upsert: db.prepare(
        `INSERT OR REPLACE INTO sessions (id, project_dir, project_path, title, title_source, started_at, ended_at,
           started_ms, ended_ms, prompts, messages, tool_calls, errors, expected_errors, versions, models, git_branch,
           issues, usage)
         VALUES (@id, @project_dir, @project_path, @title, @title_source, @started_at, @ended_at, @started_ms,
           @ended_ms, @prompts, @messages, @tool_calls, @errors, @expected_errors, @versions, @models, @git_branch,
           @issues, @usage)`,
      ),
    };
  }

  recompute(sid: string): void {
    const files = this.s.files.all(sid) as { id: number; role: string; project_dir: string }[];
    if (files.length === 0) {
      this.s.deleteSession.run(sid);
      return;
    }
    const main = files.find((f) => f.role === 'main') ?? files[0];
    const p = { sid };
    const times = this.s.times.get(p) as {
      first: string | null;
      last: string | null;
      first_ms: number | null;
      last_ms: number | null;
    };
    const prompts = this.s.prompts.get(p) as number;
    const responses = this.s.responses.get(p) as number;
    const calls = this.s.calls.get(p) as { calls: number; errors: number; expected: number };
    const title = this.titleOf(sid);
    const usageByModel: Record<string, UsageSummary> = {};
    for (const row of this.s.usage.all(p) as {
      model: string;
      i: number | null;
      o: number | null;
      cc: number | null;
      cr: number | null;
    }[]) {
      const t = usageByModel[row.model] ?? emptyUsage();
      usageByModel[row.model] = {
        responses: t.responses + 1,
        inputTokens: t.inputTokens + (row.i ?? 0),
        outputTokens: t.outputTokens + (row.o ?? 0),
        cacheCreationInputTokens: t.cacheCreationInputTokens + (row.cc ?? 0),
        cacheReadInputTokens: t.cacheReadInputTokens + (row.cr ?? 0),
      };
    }
    this.s.upsert.run({
      id: sid,
      project_dir: main?.project_dir ?? '',
      project_path: (this.s.cwd.get(p) as string | undefined) ?? null,
      title: title?.title ?? null,
      title_source: title?.source ?? null,
      started_at: times.first,
      ended_at: times.last,
      started_ms: times.first_ms,
      ended_ms: times.last_ms,
      prompts,
      messages: prompts + responses,
      tool_calls: calls.calls,
      errors: calls.errors,
      expected_errors: calls.expected,
      versions: JSON.stringify(this.s.versions.all(p)),
      models: JSON.stringify(this.s.models.all(p)),
      git_branch: (this.s.gitBranch.get(p) as string | undefined) ?? null,
      issues: this.s.issues.get(sid) as number,
      usage: JSON.stringify(usageByModel),
    });
  }

  private titleOf(sid: string): { title: string; source: string } | undefined {
    let custom: string | undefined;
    let ai: string | undefined;
    let summary: string | undefined;
    for (const row of this.s.titles.all(sid) as { source: string; title: string; leaf_uuid: string | null }[]) {
      if (row.source === 'custom-title') custom = row.title;
      else if (row.source === 'ai-title') ai = row.title;
      else if (row.source === 'summary' && row.leaf_uuid !== null && this.s.hasUuid.get(sid, row.leaf_uuid)) {
        summary = row.title;
      }
    }
    if (custom !== undefined) return { title: custom, source: 'custom-title' };
    if (ai !== undefined) return { title: ai, source: 'ai-title' };
    if (summary !== undefined) return { title: summary, source: 'summary' };
    const prompt = (this.s.firstPrompt.get({ sid }) as string | undefined)?.trim();
    if (prompt) return { title: prompt.length > 200 ? `${prompt.slice(0, 199)}…` : prompt, source: 'first-prompt' };
    return undefined;
  }
}
