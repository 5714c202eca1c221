/**
 * Gemini CLI adapter: reads `~/.gemini/tmp/<project>/chats/` sessions in both layouts (0.20-style JSON documents
 * rewritten in place, 0.61-style JSONL with replace-by-id and `$set` lines) and subagent files.
 * @module
 */
export { geminiAdapter } from './adapter.js';
export { defaultGeminiHomes, discoverGemini, recognizesGemini } from './discover.js';
export { type GeminiFileRef, streamGeminiRecords } from './stream-records.js';
export { canonicalGeminiToolName, geminiToolAliases, geminiToolKinds } from './tool-names.js';
export { typeGeminiResult } from './type-result.js';
export { type GeminiTokens, geminiTokensOf, usageFromGeminiTokens } from './usage.js';
