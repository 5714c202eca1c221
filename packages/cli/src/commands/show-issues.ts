import { dirname, isAbsolute, relative } from 'node:path';
import type { ParseIssue } from '@agentdash/core';
import { issueText, plural, terminalText } from '../format.js';
import type { Colors } from '../io.js';

/**
 * Issues the header says in a line of its own (`missing_main_file`), `--versions` lists (`version_kept`) or a note on
 * stderr gives (`unreadable_file`).
 */
const saidElsewhere: ReadonlySet<ParseIssue['code']> = new Set([
  'missing_main_file',
  'version_kept',
  'unreadable_file',
]);

/** At most this many are listed; `--json` has them all. */
const LISTED = 20;

/**
 * The header's lines for the problems met reading the session's transcripts (a malformed or truncated line, a record
 * not understood, a result without its call): how many, then each as `file:line: code: message`, the count the
 * sessions list and the dashboard give. The files are named from the folder of the session's main file (`mainFile`),
 * said once: a whole path on each line was cut at 80 columns before its line number.
 */
export function issueLines(
  issues: readonly ParseIssue[],
  ref: string,
  c: Colors,
  mainFile?: string | undefined,
): string[] {
  const listed = issues.filter((issue) => !saidElsewhere.has(issue.code));
  if (listed.length === 0) return [];
  const folder = mainFile === undefined ? undefined : dirname(mainFile);
  const named = (file: string): string => {
    if (folder === undefined) return file;
    const rel = relative(folder, file);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
  };
  const from =
    folder !== undefined && listed.some((i) => named(i.file) !== i.file) ? ` (in ${terminalText(folder)})` : '';
  const lines = [
    `${c.yellow('issues')}   ${plural(listed.length, 'problem')} reading the transcript${from}:`,
    ...listed.slice(0, LISTED).map((issue) => `         ${issueText({ ...issue, file: named(issue.file) })}`),
  ];
  if (listed.length > LISTED) {
    lines.push(
      `         ${c.dim(`and ${listed.length - LISTED} more: agentdash show ${terminalText(ref)} --json lists them all`)}`,
    );
  }
  return lines;
}
