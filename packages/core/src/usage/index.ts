/**
 * Token usage and cost, browser-safe: each API response once, priced, grouped by period, model or anything else,
 * and 5-hour billing blocks.
 * @module
 */
export * from './aggregate.js';
export * from './blocks.js';
export * from './dedupe.js';
export * from './litellm.js';
export * from './price-table.js';
export * from './pricing.js';
export * from './response-key.js';
export * from './tokens.js';
