import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Gemini's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const geminiAgent = defineAgent({
  id: 'gemini',
  label: 'Gemini',
  // Gemini CLI's `--resume` takes a position in its own list or `latest`, not a session id.
  resume: null,
  paths: '~/.gemini or its chats',
  homes: '$GEMINI_CLI_HOME/.gemini or ~/.gemini',
  layout: 'tmp/*/chats/*.json[l]',
  projectFolder: true,
  badge: { dark: '#9dc0ff', light: '#1754bb' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.geminiHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.geminiAdapter),
});
