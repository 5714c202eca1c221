/** A path as one POSIX shell word. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * What "Resume" copies: go to the session's folder and resume it there with the agent that wrote it (`resume`: the
 * words its adapter declares, followed by the session id); undefined when that agent cannot resume a session by id.
 */
export function resumeCommand(
  resume: readonly string[] | null | undefined,
  projectPath: string | null,
  sessionId: string,
): string | undefined {
  if (!resume) return undefined;
  const command = [...resume, sessionId].map(shellQuote).join(' ');
  return projectPath ? `cd ${shellQuote(projectPath)} && ${command}` : command;
}
