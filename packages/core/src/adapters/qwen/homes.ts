import { defineHomes } from '../../agents/adapter.js';
import { defaultQwenHome, recognizesQwenPath } from './discover.js';

/** Where qwen keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const qwenHomes = defineHomes('qwen', (env, homeDir) => [defaultQwenHome(env, homeDir)], recognizesQwenPath);
