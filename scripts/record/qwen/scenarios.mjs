// Qwen Code's tool vocabulary for the shared scenarios (../scenarios.mjs). It defers MCP tools (not in the request's
// tools, found through tool_search) but runs one called by its name, `mcp__<server>__<tool>`. The long session has 8
// rounds of 4 calls, as the 0.24.4 fixture was recorded (it is bundled untrimmed).
import { scenariosFor } from '../scenarios.mjs';

export const scenarios = scenariosFor({
  shell: (command) => ({ name: 'run_shell_command', args: { command, description: `Run ${command.split(' ')[0]}` } }),
  read: (file_path) => ({ name: 'read_file', args: { file_path } }),
  write: (file_path, content) => ({ name: 'write_file', args: { file_path, content } }),
  edit: (file_path, old_string, new_string) => ({ name: 'edit', args: { file_path, old_string, new_string } }),
  glob: (pattern) => ({ name: 'glob', args: { pattern } }),
  grep: (pattern) => ({ name: 'grep_search', args: { pattern } }),
  mcp: (_body, tool) => `mcp__rec__${tool}`,
  longRounds: 8,
});
