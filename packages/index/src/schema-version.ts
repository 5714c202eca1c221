/**
 * The index's schema version: the number of migration steps in schema.ts, which checks it as it loads. Kept apart
 * so that the warm path (warm.ts), which only compares it with the database's, does not load every step's SQL.
 */
export const SCHEMA_VERSION = 27;
