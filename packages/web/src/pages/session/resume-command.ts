import type { AgentId } from '@agentdash/core/model';

/** A path as one POSIX shell word. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * How each agent's CLI resumes a session by its id; null for an agent whose CLI cannot (Gemini CLI's `--resume`
 * takes a position in its own list or `latest`, not an id). An agent added to `AgentId` fails the typecheck here
 * until it says which.
 */
const resumeById = {
  claude: (id: string) => `claude --resume ${shellQuote(id)}`,
  codex: (id: string) => `codex resume ${shellQuote(id)}`,
  gemini: null,
} as const satisfies Record<AgentId, ((id: string) => string) | null>;

/**
 * What "Resume" copies: go to the session's folder and resume it there with the agent that wrote it; undefined when
 * that agent cannot resume a session by id.
 */
export function resumeCommand(agent: AgentId, projectPath: string | null, sessionId: string): string | undefined {
  const resume = resumeById[agent]?.(sessionId);
  if (resume === undefined) return undefined;
  return projectPath ? `cd ${shellQuote(projectPath)} && ${resume}` : resume;
}
