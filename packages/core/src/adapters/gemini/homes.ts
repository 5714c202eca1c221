import { defineHomes } from '../../agents/adapter.js';
import { defaultGeminiHomes, recognizesGemini } from './discover.js';

/** Where gemini keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const geminiHomes = defineHomes('gemini', defaultGeminiHomes, recognizesGemini);
