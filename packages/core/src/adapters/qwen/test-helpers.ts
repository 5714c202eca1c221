import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceOptions } from '../../agents/conformance.js';

/** The bundled Qwen Code fixtures (the 0.24.4 recording; see their README). */
export const qwenFixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/qwen');
export const qwenRecorded = join(qwenFixtures, '0.24.4');
export const qwenHome0244 = join(qwenRecorded, 'qwen-home');

/** The Qwen adapter's bundled fixtures for the shared conformance suite: no exception written. */
export const qwenConformance: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> = {
  fixtures: [qwenHome0244],
};
