import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceOptions } from '../../agents/conformance.js';

/** The bundled OpenCode fixtures (the 1.18.33 recording, and its sessions as the older JSON tree; see the README). */
export const openCodeFixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/opencode');
export const openCodeRecorded = join(openCodeFixtures, '1.18.33');
export const openCodeHome11833 = join(openCodeRecorded, 'opencode-home');
export const openCodeStorageHome = join(openCodeFixtures, 'storage-layout', 'opencode-home');

/** The OpenCode adapter's bundled fixtures for the shared conformance suite: no exception written. */
export const openCodeConformance: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> = {
  fixtures: [openCodeHome11833, openCodeStorageHome],
};
