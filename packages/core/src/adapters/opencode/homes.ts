import { defineHomes } from '../../agents/adapter.js';
import { defaultOpenCodeHome, recognizesOpenCodePath } from './discover.js';

/** Where opencode keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const openCodeHomes = defineHomes(
  'opencode',
  (env, homeDir) => [defaultOpenCodeHome(env, homeDir)],
  recognizesOpenCodePath,
);
