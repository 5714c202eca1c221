// Claude Code's tool vocabulary for the shared scenarios (../scenarios.mjs). Its Edit asks for a Read of the file
// first; its Agent tool runs a subagent in a transcript of its own; MCP tools are `mcp__<server>__<tool>`. 2.1.x
// offers no Glob or Grep tool (it answers "No such tool available: Glob … use find via the Bash tool"), so the
// script searches with the shell, as the client tells the model to.
import { scenariosFor } from '../scenarios.mjs';

const shell = (command) => ({ name: 'Bash', args: { command, description: `Run ${command.split(' ')[0]}` } });

/** The MCP tool's name as the client offers it, or as it names MCP tools when it defers them. */
const mcpName = (body, tool) =>
  (body.tools ?? []).map((t) => t.name).find((n) => typeof n === 'string' && n.endsWith(`__${tool}`)) ??
  `mcp__rec__${tool}`;

export const scenarios = scenariosFor({
  shell,
  read: (file_path) => ({ name: 'Read', args: { file_path } }),
  write: (file_path, content) => ({ name: 'Write', args: { file_path, content } }),
  edit: (file_path, old_string, new_string) => ({ name: 'Edit', args: { file_path, old_string, new_string } }),
  glob: (pattern) => shell(`find . -name '${pattern}'`),
  grep: (pattern) => shell(`grep -rn ${pattern} .`),
  // In the foreground: 2.1.332 launches agents in the background by default, and the script's steps are sequential.
  task: (description, prompt) => ({
    name: 'Agent',
    args: { description, prompt, subagent_type: 'general-purpose', run_in_background: false },
  }),
  mcp: mcpName,
  readBeforeEdit: true,
});
