import { agentLabels } from './model/agent.js';
import { messageOf } from './present/message.js';

export { messageOf };

/** Operational failures with stable codes. The CLI maps them to exit codes, the server to HTTP statuses. */
export class AgentDashError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export class PathNotFoundError extends AgentDashError {
  readonly path: string;
  constructor(path: string) {
    super('PATH_NOT_FOUND', `no such file or directory: ${path}`);
    this.path = path;
  }
}

export class NotTranscriptError extends AgentDashError {
  readonly path: string;
  constructor(path: string) {
    super(
      'NOT_A_TRANSCRIPT',
      `not an agent's home or a folder or transcript file inside one (${agentLabels()}): ${path}`,
    );
    this.path = path;
  }
}

export class UnreadableFileError extends AgentDashError {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super('UNREADABLE_FILE', `cannot read ${path}: ${messageOf(cause)}`, {
      cause,
    });
    this.path = path;
  }
}

/** A file names an agent this build has no adapter for (say, an index written by a newer version). */
export class AgentNotRegisteredError extends AgentDashError {
  readonly agent: string;
  constructor(agent: string) {
    super('AGENT_NOT_REGISTERED', `no adapter is registered for the agent "${agent}"`);
    this.agent = agent;
  }
}
