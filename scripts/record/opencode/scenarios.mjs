// OpenCode's tool vocabulary for the shared scenarios (../scenarios.mjs). Its edit asks for a read of the file first;
// its task tool runs a subagent in a child session (its own session row, `parent_id` the caller's); MCP tools are
// named `<server>_<tool>`, so the script takes the name it offers.
import { offered, scenariosFor } from '../scenarios.mjs';

export const scenarios = scenariosFor({
  shell: (command) => ({ name: 'bash', args: { command, description: `Run ${command.split(' ')[0]}` } }),
  read: (filePath) => ({ name: 'read', args: { filePath } }),
  write: (filePath, content) => ({ name: 'write', args: { filePath, content } }),
  edit: (filePath, oldString, newString) => ({ name: 'edit', args: { filePath, oldString, newString } }),
  glob: (pattern) => ({ name: 'glob', args: { pattern } }),
  grep: (pattern) => ({ name: 'grep', args: { pattern } }),
  task: (description, prompt) => ({ name: 'task', args: { description, prompt, subagent_type: 'general' } }),
  mcp: (body, tool) => offered(body, tool),
  readBeforeEdit: true,
});
