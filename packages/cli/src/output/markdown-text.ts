/** Markdown helpers for exports: the server's (its export route writes the same Markdown as the CLI). */
export { escapeMarkdown, fence } from '@agentdash/server/export-formats';
