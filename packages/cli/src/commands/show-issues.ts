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
 * sessions list and the dashboard give.
 */
export function issueLines(issues: readonly ParseIssue[], ref: string, c: Colors): string[] {
  const listed = issues.filter((issue) => !saidElsewhere.has(issue.code));
  if (listed.length === 0) return [];
  const lines = [
    `${c.yellow('issues')}   ${plural(listed.length, 'problem')} reading the transcript:`,
    ...listed.slice(0, LISTED).map((issue) => `         ${issueText(issue)}`),
  ];
  if (listed.length > LISTED) {
    lines.push(
      `         ${c.dim(`and ${listed.length - LISTED} more: agentdash show ${terminalText(ref)} --json lists them all`)}`,
    );
  }
  return lines;
}
