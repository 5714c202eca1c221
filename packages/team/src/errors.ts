/** The team server's operational errors, each with a stable code (mapped to exit codes by the CLI, statuses by the API). */
import { AgentDashError } from '@agentdash/core';

/** PostgreSQL cannot be reached or refused the login. */
export class TeamDbUnreachableError extends AgentDashError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('TEAM_DB_UNREACHABLE', message, options);
  }
}

/** No such person, device or viewer. */
export class TeamUnknownNameError extends AgentDashError {
  constructor(message: string) {
    super('TEAM_UNKNOWN_NAME', message);
  }
}

/** A person, device or viewer of that name exists already. */
export class TeamDuplicateNameError extends AgentDashError {
  constructor(message: string) {
    super('TEAM_DUPLICATE_NAME', message);
  }
}

/** A name, schema name or URL the team server cannot use. */
export class TeamBadInputError extends AgentDashError {
  constructor(message: string) {
    super('BAD_ARGUMENTS', message);
  }
}

/** The database was migrated by a newer AgentDash than this one. */
export class TeamSchemaAheadError extends AgentDashError {
  constructor(message: string) {
    super('TEAM_SCHEMA_AHEAD', message);
  }
}
