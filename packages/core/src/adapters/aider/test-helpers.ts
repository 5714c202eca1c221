import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceOptions } from '../../agents/conformance.js';

/** Real histories from public repositories (see the fixtures' SOURCES.md): a folder of repositories. */
export const aiderFixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/aider');

/** The Aider adapter's fixtures for the shared conformance suite, with its written exceptions. */
export const aiderConformance: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> = {
  fixtures: [aiderFixtures],
  skip: [
    {
      checks: ['accounts for every line as a record or an issue'],
      reason:
        'Markdown blocks span lines (a record per block, at its first line): aider-corpus.test.ts checks that the blocks cover every line',
    },
  ],
};
