/**
 * The tool parsers live in `./tools/` (one file a tool family, the registry in `./tools/index.ts`).
 * This path stays for the importers outside `results/`: `../index.ts` and `type-result.test.ts`.
 */

export type { DataParser, ParseContext } from './tools/index.js';
export { dataParsers, kindOfTool, parseAnswerPairs, toolKinds } from './tools/index.js';
