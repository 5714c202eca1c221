import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Copilot CLI's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const copilotAgent = defineAgent({
  id: 'copilot',
  label: 'Copilot CLI',
  // `copilot --resume <id>` (its --help: "-r, --resume [<value>] … session ID"; the recorder's resume run uses it).
  resume: ['copilot', '--resume'],
  paths: '~/.copilot, its session-state/ folder, a session folder or its events.jsonl',
  homes: '$COPILOT_HOME or ~/.copilot',
  layout: 'session-state/*/events.jsonl',
  projectFolder: false,
  badge: { dark: '#c9b2ff', light: '#5b2fb8' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.copilotHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.copilotAdapter),
});
