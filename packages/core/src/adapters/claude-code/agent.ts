import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Claude Code's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const claudeAgent = defineAgent({
  id: 'claude',
  label: 'Claude Code',
  resume: ['claude', '--resume'],
  paths: 'a Claude home, a projects folder, a project folder or .jsonl files',
  homes: '$CLAUDE_CONFIG_DIR or ~/.claude',
  layout: 'projects/*/*.jsonl',
  projectFolder: true,
  billingBlocks: true,
  badge: { dark: '#f2b48f', light: '#8c4315' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.claudeHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.claudeCodeAdapter),
});
