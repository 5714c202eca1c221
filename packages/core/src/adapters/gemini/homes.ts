import { defineHomes } from '../../agents/adapter.js';
import { recognizingHeadless } from '../../io/headless.js';
import { defaultGeminiHomes, geminiStreamWriter, recognizesGemini } from './discover.js';

/** Where gemini keeps its transcripts and how its folders are recognised (light: no parser behind it). */
export const geminiHomes = defineHomes(
  'gemini',
  defaultGeminiHomes,
  recognizingHeadless(geminiStreamWriter, recognizesGemini),
);
