import { defineHomes } from '../../agents/adapter.js';
import { defaultCodexHome, recognizesCodexPath } from './discover.js';

/** Where codex keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const codexHomes = defineHomes('codex', (env, homeDir) => [defaultCodexHome(env, homeDir)], recognizesCodexPath);
