import { isRecord, str } from '../../internal/guards.js';

/**
 * Texts Codex puts in `role: "user"` messages that the user did not type: the environment, AGENTS.md, permissions,
 * skills, an aborted turn's note, the fork notice of a spawned agent, a `/review`'s output (`<user_action>`, 0.144).
 * They are kept as meta (hidden) records.
 */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<permissions instructions>',
  '<skills_instructions>',
  '<INSTRUCTIONS>',
  '<turn_aborted>',
  '<user_shell_command>',
  '<subagent_notification>',
  '<collaboration_mode>',
  '<apps_instructions>',
  '<personality_spec>',
  '<model_switch>',
  '<recommended_plugins>',
  '<skill>',
  '<user_action>',
] as const;

export function isInjectedUserText(text: string): boolean {
  const start = text.trimStart();
  return INJECTED_PREFIXES.some((prefix) => start.startsWith(prefix));
}

/**
 * The IDE extensions' prompt (0.40 VS Code and later): sections the extension adds (`# Context from my IDE setup:`
 * with the active file and open tabs, `# Files mentioned by the user:`), then `## My request for Codex:` and what
 * the user typed.
 */
const IDE_PROMPT =
  /^\s*# (?:Context from my IDE setup|Files mentioned by the user):\n[\s\S]*?\n## My request for Codex:\n/;

/** An IDE prompt split into the extension's context and the user's request; undefined for any other text. */
export function splitIdePrompt(text: string): { readonly context: string; readonly request: string } | undefined {
  const match = IDE_PROMPT.exec(text);
  if (match === null) return undefined;
  return { context: match[0].trim(), request: text.slice(match[0].length) };
}

/**
 * The folder a user message's `<environment_context>` names, as legacy rollouts carry it: `<cwd>…</cwd>`, or
 * `Current working directory: …` on a line of its own (≤0.2x, ../shared/wild-agents ocodex-1).
 */
export function environmentCwd(item: Record<string, unknown>): string | undefined {
  if (item.type !== 'message' || item.role !== 'user' || !Array.isArray(item.content)) return undefined;
  for (const part of item.content) {
    const text = isRecord(part) ? str(part.text) : undefined;
    if (text?.includes('<environment_context>') !== true) continue;
    const cwd = (/<cwd>([^<]+)<\/cwd>/.exec(text) ?? /^Current working directory: (.+)$/m.exec(text))?.[1]?.trim();
    if (cwd) return cwd;
  }
  return undefined;
}
