/**
 * AgentDash team mode: the protocol (`./contract`), the team server on PostgreSQL and the laptop's push client.
 * @module
 */
export * from './contract.js';
export { canonicalJson, digestOf } from './digest.js';
export {
  TeamBadInputError,
  TeamDbUnreachableError,
  TeamDuplicateNameError,
  TeamSchemaAheadError,
  TeamUnknownNameError,
} from './errors.js';
export { DEFAULT_SCHEMA, openTeamDb, type TeamDb, type TeamDbOptions } from './pg/db.js';
export { deviceState } from './pg/device-seen.js';
export { type Erased, erase } from './pg/erase.js';
export { findPostgresBin, type LocalPostgres, startLocalPostgres } from './pg/local-postgres.js';
export { migrate, migrations } from './pg/migrations.js';
export { openMigratedTeamDb, schemaVersion, type TeamDbArgs } from './pg/open.js';
export {
  addDevice,
  addPerson,
  addViewer,
  type DeviceAdded,
  hasTokenStore,
  listTeam,
  type PersonAdded,
  type Revoked,
  revoke,
  type TeamListing,
  type ViewerAdded,
} from './pg/people.js';
export { buildSession, uidOf } from './push/build.js';
export { type Chunk, chunkOf, type FileChunks, fileChunks, redactLine } from './push/chunks.js';
export { PushError, TeamClient, type TeamClientOptions, teamApiBase } from './push/client.js';
export { FileCache } from './push/file-cache.js';
export { ForgottenSessions } from './push/forgotten.js';
export { projectHash, sessionUid } from './push/hash.js';
export {
  forget,
  type PlannedSession,
  type PushOptions,
  type PushProgress,
  type PushReport,
  push,
  unforget,
} from './push/push.js';
export { type ProjectTier, parseProjectTier, type TierPolicy, tierOf } from './push/tiers.js';
export { type PushLoopOptions, pushLoop, stopsPushing } from './push/watch.js';
export { type RunningTeamServer, startTeamServer, type TeamServerOptions } from './server/start.js';
export { createTeamApp, type TeamAppDeps } from './server/team-app.js';
