/** A path as one POSIX shell word. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** What "Resume in Claude Code" copies: go to the session's folder and resume it there. */
export function resumeCommand(projectPath: string | null, sessionId: string): string {
  const resume = `claude --resume ${shellQuote(sessionId)}`;
  return projectPath ? `cd ${shellQuote(projectPath)} && ${resume}` : resume;
}
