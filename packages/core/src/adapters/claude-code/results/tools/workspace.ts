/** Parsers of the code-workspace tools: LSP, EnterWorktree, ExitWorktree, ReportFindings. */
import { isRecord, num, str } from '../../../../internal/guards.js';
import { type DataParser, rec } from './shared.js';

export const lsp: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const operation = str(tur.operation);
    if (operation === undefined) return undefined;
    return {
      operation,
      filePath: str(tur.filePath),
      result: str(tur.result) ?? ctx.text,
      resultCount: num(tur.resultCount),
      fileCount: num(tur.fileCount),
    };
  }
  const operation = str(ctx.input.operation);
  if (operation === undefined) return undefined;
  return { operation, filePath: str(ctx.input.filePath), result: ctx.text };
};

export const enterWorktree: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const worktreePath = str(tur.worktreePath);
    if (worktreePath === undefined) return undefined;
    return { worktreePath, worktreeBranch: str(tur.worktreeBranch), message: str(tur.message) ?? ctx.text };
  }
  const m = /worktree at “(.+?)”(?: on branch “(.+?)”)?/.exec(ctx.text);
  return m ? { worktreePath: m[1], worktreeBranch: m[2], message: ctx.text } : undefined;
};

export const exitWorktree: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const action = str(tur.action);
    if (action === undefined) return undefined;
    return {
      action,
      originalCwd: str(tur.originalCwd),
      worktreePath: str(tur.worktreePath),
      worktreeBranch: str(tur.worktreeBranch),
      discardedFiles: num(tur.discardedFiles),
      discardedCommits: num(tur.discardedCommits),
      message: str(tur.message) ?? ctx.text,
    };
  }
  const action = str(ctx.input.action);
  if (action === undefined) return undefined;
  return { action, worktreePath: /worktree at “(.+?)”/.exec(ctx.text)?.[1], message: ctx.text };
};

function findingList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((f) => ({
    file: str(f.file) ?? '',
    line: num(f.line),
    summary: str(f.summary) ?? '',
    shortSummary: str(f.short_summary),
    failureScenario: str(f.failure_scenario),
    category: str(f.category),
    severity: str(f.severity),
    verdict: str(f.verdict),
    outcome: str(f.outcome),
  }));
}

export const reportFindings: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const count = num(tur.count);
    if (count === undefined) return undefined;
    return { count, level: str(tur.level), findings: findingList(tur.findings) };
  }
  const text = ctx.text.trim();
  const m = /^(\d+) findings? reported/.exec(text);
  if (!m && !/^No findings reported/.test(text)) return undefined;
  return { count: m ? Number(m[1]) : 0, level: str(ctx.input.level), findings: findingList(ctx.input.findings) };
};
