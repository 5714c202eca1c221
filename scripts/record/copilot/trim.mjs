// Trim a Copilot CLI recording (or real events files) into a bundled fixture: every line is kept, in order; only
// the system prompt (`system.message` content, about 20 KB a session) and the prompt as sent
// (`user.message.transformedContent`) are cut to their first 200 characters, marked `…[cut N chars]`, and a finished
// call's `toolTelemetry` (the client's own metrics, which AgentDash does not read) is replaced by `"[cut]"`.
//
//   node scripts/record/copilot/trim.mjs <events.jsonl> <out events.jsonl>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const cut = (text) =>
  typeof text === 'string' && text.length > 200 ? `${text.slice(0, 200)}…[cut ${text.length - 200} chars]` : text;

/** One line of an events file, trimmed (blank lines as they are). */
export function trimCopilotLine(line) {
  if (line.trim() === '') return line;
  const event = JSON.parse(line);
  if (event.type === 'system.message' && event.data) event.data.content = cut(event.data.content);
  if (event.type === 'user.message' && event.data) event.data.transformedContent = cut(event.data.transformedContent);
  if (event.type === 'tool.execution_complete' && event.data?.toolTelemetry !== undefined)
    event.data.toolTelemetry = '[cut]';
  return JSON.stringify(event);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [from, to] = process.argv.slice(2);
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, readFileSync(from, 'utf8').split('\n').map(trimCopilotLine).join('\n'));
}
