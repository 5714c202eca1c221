import { checkLines, checkPairing, checkTyping } from './conformance-calls.js';
import { checkDeclared, checkDiscovers, checkHostile, checkRecognizes } from './conformance-input.js';
import { checkResume, checkStableIds, checkStandAlone } from './conformance-offsets.js';
import {
  type ConformanceCase,
  type ConformanceCheck,
  type ConformanceOptions,
  conformanceChecks,
} from './conformance-shared.js';

export {
  type ConformanceCase,
  type ConformanceCheck,
  type ConformanceOptions,
  type ConformanceSkip,
  conformanceChecks,
} from './conformance-shared.js';

/*
 * The checks every agent adapter passes, over its own bundled fixtures (hono's router tests, which every router
 * runs, are the model). Each check returns its failures as sentences, so a test asserts `toEqual([])` and a
 * failure says what broke. An adapter skips a check only with a written reason.
 */

/** The suite for one adapter, one case per check, in `conformanceChecks` order. */
export function conformanceCases(options: ConformanceOptions): ConformanceCase[] {
  const skipReason = (check: ConformanceCheck): string | undefined => {
    const skip = options.skip?.find((s) => s.checks.includes(check));
    if (skip !== undefined) return skip.reason;
    if (check === 'resumes from an offset as a whole read does' && !options.adapter.capabilities.appendOnly) {
      return 'not append-only: a changed file is read whole, never resumed';
    }
    if (check === 'reads a record back from its offset alone' && !options.adapter.capabilities.linesStandAlone) {
      return 'lines do not stand alone: a record is read back by reading its file from the start';
    }
    return undefined;
  };
  const runs: Record<ConformanceCheck, () => Promise<string[]>> = {
    'recognizes its fixtures and nothing else': () => checkRecognizes(options),
    'discovers its fixtures, each file carrying its agent': () => checkDiscovers(options),
    'never throws on hostile input': () => checkHostile(options),
    'accounts for every line as a record or an issue': () => checkLines(options),
    'pairs every tool call or reports it': () => checkPairing(options),
    'types every result onto a kind that validates': () => checkTyping(options),
    'gives the same ids on two reads': () => checkStableIds(options),
    'resumes from an offset as a whole read does': () => checkResume(options),
    'reads a record back from its offset alone': () => checkStandAlone(options),
    'declares its label and how its CLI resumes': async () => checkDeclared(options.adapter),
  };
  return conformanceChecks.map((check) => ({ check, skipReason: skipReason(check), run: runs[check] }));
}
