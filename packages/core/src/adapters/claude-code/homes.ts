import { defineHomes } from '../../agents/adapter.js';
import { defaultClaudeHome } from '../../io/discover.js';
import { recognizesClaudePath } from './recognize.js';

/** Where claude keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const claudeHomes = defineHomes(
  'claude',
  (env, homeDir) => [defaultClaudeHome(env, homeDir)],
  recognizesClaudePath,
);
