import { aiderAgent } from '../adapters/aider/agent.js';
import { claudeAgent } from '../adapters/claude-code/agent.js';
import { codexAgent } from '../adapters/codex/agent.js';
import { copilotAgent } from '../adapters/copilot/agent.js';
import { geminiAgent } from '../adapters/gemini/agent.js';
import { openCodeAgent } from '../adapters/opencode/agent.js';
import { qwenAgent } from '../adapters/qwen/agent.js';

/**
 * The agent registry: every agent AgentDash reads, in the order shown, one descriptor per adapter folder
 * (`adapters/<agent>/agent.ts`, `agents/descriptor.ts`). Adding an agent is its folder and its line here (with the
 * import). Everything else derives from this list: `AgentId` and `agentIds` (`model/agent.ts`), `--agent`, the CLI's
 * help and warnings, the `--json` types, `GET /api/agents` (labels, homes, badge colours), the homes a command reads
 * (`agents/homes.ts`) and the parsers (`agents/adapters.ts`). Loads no homes and no parser: those are the
 * descriptors' `import()`s. `claude` stays first: rows stored without an agent are Claude Code's (`agentIds[0]`).
 */
export const agents = [
  claudeAgent,
  codexAgent,
  geminiAgent,
  copilotAgent,
  qwenAgent,
  openCodeAgent,
  aiderAgent,
] as const;
