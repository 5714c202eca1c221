import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Codex's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const codexAgent = defineAgent({
  id: 'codex',
  label: 'Codex',
  resume: ['codex', 'resume'],
  paths: '~/.codex, its sessions/ folder or rollout files',
  homes: '$CODEX_HOME or ~/.codex',
  layout: 'sessions/**/rollout-*.jsonl',
  projectFolder: false,
  badge: { dark: '#6fdcb4', light: '#08684c' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.codexHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.codexAdapter),
});
