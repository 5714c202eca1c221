import { defineHomes } from '../../agents/adapter.js';
import { defaultAiderHomes, recognizesAiderPath } from './discover.js';

/** Where aider keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const aiderHomes = defineHomes('aider', defaultAiderHomes, recognizesAiderPath);
