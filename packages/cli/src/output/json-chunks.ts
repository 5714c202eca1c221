/** `JSON.stringify(value, null, 2)` in pieces: the server's (its export route writes the same JSON as the CLI). */
export { jsonChunks } from '@agentdash/server/export-formats';
