import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Aider's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const aiderAgent = defineAgent({
  id: 'aider',
  label: 'Aider',
  // Aider resumes a repository's last chat (`--restore-chat-history`), not a session by id.
  resume: null,
  paths: 'a repository holding .aider.chat.history.md, or a folder of such repositories',
  homes: 'the folders listed in $AGENTDASH_AIDER_PROJECTS',
  layout: '.aider.chat.history.md, */.aider.chat.history.md',
  projectFolder: true,
  // `aider-<repository folder>`
  namedIds: true,
  // `.aider.chat.history.md` in the repository, beside the person's own files
  inPersonsFolders: true,
  badge: { dark: '#e6d27a', light: '#7a6300' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.aiderHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.aiderAdapter),
});
