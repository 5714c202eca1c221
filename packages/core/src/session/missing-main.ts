import { join } from 'node:path';
import type { AgentAdapter } from '../agents/adapter.js';
import type { ParseIssue } from '../model/issue.js';

/**
 * The issue of a session found by its subagents' files alone (its main file never copied, or deleted), one rule for
 * every reader. Where the agent names a main file by its session's id alone (`mainFileName`), the issue names that
 * file; else (a Codex rollout's name holds its time too) the session and the folder its files were found in, not a
 * file that would never be there.
 */
export function missingMainIssue(
  adapter: Pick<AgentAdapter, 'mainFileName'>,
  sessionId: string,
  projectDir: string,
  subagentFiles: number,
): ParseIssue {
  const name = adapter.mainFileName?.(sessionId);
  return {
    code: 'missing_main_file',
    file: name === undefined ? projectDir : join(projectDir, name),
    line: 0,
    message: `${name === undefined ? `the main transcript of session ${sessionId}` : 'the main session file'} is missing; showing its ${subagentFiles} subagent file(s)`,
  };
}
