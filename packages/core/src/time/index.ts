/**
 * Where a session's time went: model, tools, the person, idle. Browser-safe.
 * @module
 */
export * from './activity.js';
export * from './partition.js';
export * from './waterfall.js';
