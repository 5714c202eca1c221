import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceOptions } from '../../agents/conformance.js';

/** The bundled Copilot CLI fixtures (a trimmed 1.0.102 recording and two real files; see their README). */
export const copilotFixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/copilot');
export const copilotRecorded = join(copilotFixtures, '1.0.102');
export const copilotHome102 = join(copilotRecorded, 'copilot-home');
export const copilotWild = join(copilotFixtures, 'wild/entire-agentv-1');

/** The Copilot adapter's bundled fixtures for the shared conformance suite: no exception written. */
export const copilotConformance: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> = {
  fixtures: [copilotHome102, copilotWild],
};
