/**
 * Browser-safe model of AgentDash: types and pure helpers, no Node APIs.
 * @module
 */
export * from './agent.js';
export * from './call-input.js';
export * from './content.js';
export * from './ids.js';
export * from './issue.js';
export * from './json-schema.js';
export * from './raw.js';
export * from './record.js';
export * from './session.js';
export * from './tool-call.js';
export * from './tool-error.js';
export * from './typed-result.js';
