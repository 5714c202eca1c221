import { join } from 'node:path';
import type { ConformanceOptions } from '../../agents/conformance.js';
import { geminiFixtures, home020, home061 } from './test-helpers.js';

/** The Gemini adapter's bundled fixtures and its one written exception, for the shared conformance suite. */
export const geminiConformance: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> = {
  fixtures: [
    home061,
    home020,
    ...['entire-cli-2', 'agentcmd-1', 'free5gc-compose-1'].map((w) => join(geminiFixtures, 'wild', w)),
    // `--output-format stream-json` output of four corpus runs (0.20.2, 0.61.0), as a CI job keeps it.
    join(geminiFixtures, 'stream-json'),
  ],
  skip: [
    {
      checks: ['accounts for every line as a record or an issue'],
      reason:
        '0.20 sessions are one pretty-printed JSON document, whose lines are not records; the JSONL layout runs this check in adapters/gemini/conformance-jsonl.test.ts',
    },
  ],
};
