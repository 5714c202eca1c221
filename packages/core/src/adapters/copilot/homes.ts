import { defineHomes } from '../../agents/adapter.js';
import { defaultCopilotHome, recognizesCopilotPath } from './discover.js';

/** Where copilot keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const copilotHomes = defineHomes(
  'copilot',
  (env, homeDir) => [defaultCopilotHome(env, homeDir)],
  recognizesCopilotPath,
);
