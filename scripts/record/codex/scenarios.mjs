// Codex CLI's tool vocabulary for the shared scenarios (../scenarios.mjs). Codex works through its shell tool,
// `exec_command`: reading, writing, listing and searching files are shell commands (its apply_patch is a freeform
// tool the scripted model does not speak), an edit is a sed that fails, as the script means, when the text to replace
// is not there. Its plan tool is `update_plan`. It has no subagents. MCP tools are found among the offered tools by
// their name's end.
import { offered, scenariosFor } from '../scenarios.mjs';

const exec = (cmd) => ({ name: 'exec_command', args: { cmd } });
/** A shell word quoted for `sh`. */
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

export const scenarios = scenariosFor({
  shell: exec,
  read: (path) => exec(`cat ${quote(path)}`),
  write: (path, content) => exec(`printf '%s' ${quote(content)} > ${quote(path)}`),
  edit: (path, oldText, newText) =>
    exec(`grep -qF ${quote(oldText)} ${quote(path)} && sed -i ${quote(`s/${oldText}/${newText}/`)} ${quote(path)}`),
  glob: (pattern) => exec(`ls ${pattern}`),
  grep: (pattern) => exec(`grep -rn ${quote(pattern)} .`),
  plan: (plan) => ({ name: 'update_plan', args: { plan } }),
  mcp: (body, tool) => offered(body, tool),
});
