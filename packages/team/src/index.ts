/**
 * AgentDash team mode: the protocol (`./contract`), the team server on PostgreSQL and the laptop's push client.
 * @module
 */
export * from './contract.js';
export { canonicalJson, digestOf } from './digest.js';
