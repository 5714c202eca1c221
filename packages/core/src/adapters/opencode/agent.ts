import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** OpenCode's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const openCodeAgent = defineAgent({
  id: 'opencode',
  label: 'OpenCode',
  // `opencode --session <id>` (its --help: "-s, --session  session id to continue"; the recorder's resume run uses
  // `opencode run --session <id>`).
  resume: ['opencode', '--session'],
  paths: 'its data folder, its opencode.db or storage/ folder',
  homes: '$XDG_DATA_HOME/opencode or ~/.local/share/opencode',
  layout: 'opencode.db, storage/session/*/*.json',
  projectFolder: false,
  badge: { dark: '#8fd6c4', light: '#176b58' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.openCodeHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.openCodeAdapter),
});
