import { defineAgent, type Loaded } from '../../agents/descriptor.js';

/** Qwen Code's descriptor: its line in `agents/registry.ts` is all the rest of AgentDash needs of the folder. */
export const qwenAgent = defineAgent({
  id: 'qwen',
  label: 'Qwen Code',
  // `qwen --resume <id>` (its --help: "Resume a specific session by its ID"; the recorder's resume run uses it,
  // from the session's project folder: sessions are kept per project).
  resume: ['qwen', '--resume'],
  paths: '~/.qwen, its projects/ folder, a project or chats/ folder or a session .jsonl',
  homes: '$QWEN_RUNTIME_DIR or $QWEN_HOME or ~/.qwen',
  layout: 'projects/*/chats/*.jsonl',
  projectFolder: true,
  badge: { dark: '#ffb38a', light: '#a3470f' },
  loadHomes: (): Promise<Loaded> => import('./homes.js').then((m) => m.qwenHomes),
  loadAdapter: (): Promise<Loaded> => import('./adapter.js').then((m) => m.qwenAdapter),
});
