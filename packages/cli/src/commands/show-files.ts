/**
 * `show SESSION --files`: the files the session's file tools touched (core's `fileActivityOf`), as the dashboard's
 * Files page lists them: those it changed, then those it did not (read, or every change failed).
 */
import type { Session } from '@agentdash/core';
import {
  FILE_SOURCES_NOTE,
  type FileActivity,
  fileActivityOf,
  fileChanged,
  relativePath,
} from '@agentdash/core/present';
import type { Context } from '../context.js';
import { formatCount, plural } from '../format.js';
import type { ShowFilesJson } from '../output/json-types.js';
import { type Cell, renderTable, styled } from '../table.js';
import { writeJson } from './common.js';

/** What became of a file in words: created, deleted, moved to …, its lines added and removed. */
function outcomeOf(f: FileActivity, projectPath: string | undefined): string {
  const words: string[] = [];
  if (f.created) words.push('created');
  if (f.deleted) words.push('deleted');
  if (f.movedTo !== null) words.push(`moved to ${relativePath(f.movedTo, projectPath)}`);
  if (f.linesAdded + f.linesRemoved > 0) words.push(`+${f.linesAdded} −${f.linesRemoved}`);
  return words.join(', ');
}

const count = (n: number): string => (n > 0 ? formatCount(n) : '');

/** The session's files: `--json` as `ShowFilesJson`, else a table of each group with its totals. */
export function printFiles(ctx: Context, session: Session): void {
  const files = fileActivityOf(session.calls, session.projectPath);
  if (ctx.json) {
    const json: ShowFilesJson = { sessionId: session.id, projectPath: session.projectPath ?? null, files };
    writeJson(ctx, json);
    return;
  }
  const out = ctx.io.stdout;
  const c = ctx.color;
  if (files.length === 0) {
    out.write(`no file was touched in this session, ${FILE_SOURCES_NOTE}\n`);
    return;
  }
  const changed = files.filter(fileChanged);
  const read = files.filter((f) => !fileChanged(f));
  const path = (f: FileActivity) => relativePath(f.path, session.projectPath);
  const failed = (f: FileActivity): Cell => (f.failed > 0 ? styled(formatCount(f.failed), c.red) : '');
  if (changed.length > 0) {
    const added = changed.reduce((n, f) => n + f.linesAdded, 0);
    const removed = changed.reduce((n, f) => n + f.linesRemoved, 0);
    out.write(`${c.bold('changed')} ${plural(changed.length, 'file')} (+${added} −${removed} lines)\n`);
    out.write(
      renderTable(
        [
          { header: 'FILE', min: 24, cut: 'start' },
          { header: 'OUTCOME', min: 12 },
          { header: 'READS', align: 'right', drop: 1 },
          { header: 'EDITS', align: 'right' },
          { header: 'WRITES', align: 'right' },
          { header: 'FAILED', align: 'right' },
        ],
        changed.map((f) => [
          path(f),
          outcomeOf(f, session.projectPath),
          count(f.reads),
          count(f.edits),
          count(f.writes),
          failed(f),
        ]),
        { width: ctx.width, headerStyle: c.bold },
      ),
    );
  }
  if (read.length > 0) {
    out.write(`${changed.length > 0 ? '\n' : ''}${c.bold('not changed')} ${plural(read.length, 'file')}\n`);
    out.write(
      renderTable(
        [
          { header: 'FILE', min: 24, cut: 'start' },
          { header: 'READS', align: 'right' },
          { header: 'FAILED', align: 'right' },
        ],
        read.map((f) => [path(f), count(f.reads), failed(f)]),
        { width: ctx.width, headerStyle: c.bold },
      ),
    );
  }
  out.write(c.dim(`${FILE_SOURCES_NOTE}\n`));
}
