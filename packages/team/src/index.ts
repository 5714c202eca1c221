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
export { migrate, migrations, schemaVersion } from './pg/migrations.js';
export { openMigratedTeamDb, type TeamDbArgs } from './pg/open.js';
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
export { type RunningTeamServer, startTeamServer, type TeamServerOptions } from './server/start.js';
export { createTeamApp, type TeamAppDeps } from './server/team-app.js';
