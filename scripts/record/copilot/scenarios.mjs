// GitHub Copilot CLI's tool vocabulary for the shared scenarios (../scenarios.mjs). MCP tools are named by the
// client (`<server>-<tool>`), so the script takes the name it offers.
import { offered, scenariosFor } from '../scenarios.mjs';

export const scenarios = scenariosFor({
  shell: (command) => ({ name: 'bash', args: { command, description: `Run ${command.split(' ')[0]}` } }),
  read: (path) => ({ name: 'view', args: { path } }),
  write: (path, file_text) => ({ name: 'create', args: { path, file_text } }),
  edit: (path, old_str, new_str) => ({ name: 'edit', args: { path, old_str, new_str } }),
  glob: (pattern) => ({ name: 'glob', args: { pattern } }),
  grep: (pattern) => ({ name: 'grep', args: { pattern, output_mode: 'content', '-n': true } }),
  mcp: (body, tool) => offered(body, tool),
});
