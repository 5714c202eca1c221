/**
 * Texts Codex puts in `role: "user"` messages that the user did not type: the environment, AGENTS.md, permissions,
 * skills, an aborted turn's note, the fork notice of a spawned agent. They are kept as meta (hidden) records.
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
] as const;

export function isInjectedUserText(text: string): boolean {
  const start = text.trimStart();
  return INJECTED_PREFIXES.some((prefix) => start.startsWith(prefix));
}
