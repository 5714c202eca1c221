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

/**
 * The id "Resume" gives the agent: the session's id as its transcript names it (`transcriptId`, from its events), or
 * before they came (or for a session without any) its reference when that is the id alone. The reference is
 * `<id>@<folder>`, or a stored key that is a path, when another folder or home holds a session of that id: never
 * given to the agent. None when the agent could not resume the session: its files are gone from disk (`archived`) or
 * its main file is missing (only subagents' files).
 */
export function resumableId(
  ref: string,
  transcriptId: string | undefined,
  archived: boolean,
  /** Whether its main file is here (`SessionDetail.mainFile`). */
  mainFile: boolean,
): string | undefined {
  if (archived || !mainFile) return undefined;
  return transcriptId ?? (/[@/\\]/.test(ref) ? undefined : ref);
}
