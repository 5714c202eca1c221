// Gemini CLI's tool vocabulary for the shared scenarios (../scenarios.mjs). Its own side requests (the model router)
// are answered apart and take no step. It has no subagents here. MCP tools are found among the offered tools by their
// name's end.
import { offered, scenariosFor } from '../scenarios.mjs';

export const scenarios = scenariosFor({
  shell: (command) => ({ name: 'run_shell_command', args: { command, description: `Run ${command.split(' ')[0]}` } }),
  read: (file_path) => ({ name: 'read_file', args: { file_path } }),
  write: (file_path, content) => ({ name: 'write_file', args: { file_path, content } }),
  edit: (file_path, old_string, new_string) => ({ name: 'replace', args: { file_path, old_string, new_string } }),
  glob: (pattern) => ({ name: 'glob', args: { pattern } }),
  grep: (pattern) => ({ name: 'grep_search', args: { pattern } }),
  mcp: (body, tool) => offered(body, tool),
});
