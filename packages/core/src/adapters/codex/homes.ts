import { defineHomes } from '../../agents/adapter.js';
import { recognizingHeadless } from '../../io/headless.js';
import { codexExecWriter, defaultCodexHome, recognizesCodexPath } from './discover.js';

/** Where codex keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const codexHomes = defineHomes(
  'codex',
  (env, homeDir) => [defaultCodexHome(env, homeDir)],
  recognizingHeadless(codexExecWriter, recognizesCodexPath),
);
