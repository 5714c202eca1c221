import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeFixtures, codexFixtures } from '../../test/helpers.js';
import { aiderConformance } from '../adapters/aider/test-helpers.js';
import { copilotConformance } from '../adapters/copilot/test-helpers.js';
import { geminiConformance } from '../adapters/gemini/conformance-options.js';
import { openCodeConformance } from '../adapters/opencode/test-helpers.js';
import { qwenConformance } from '../adapters/qwen/test-helpers.js';
import type { AgentId } from '../model/agent.js';
import { agentAdapters } from './adapters.js';
import { type ConformanceOptions, conformanceCases } from './conformance.js';

/** Each registered agent's bundled fixtures and its written exceptions. An agent without fixtures fails. */
const perAgent: { readonly [K in AgentId]?: Omit<ConformanceOptions, 'adapter' | 'scratchDir'> } = {
  claude: { fixtures: [claudeFixtures] },
  gemini: geminiConformance,
  copilot: copilotConformance,
  qwen: qwenConformance,
  opencode: openCodeConformance,
  aider: aiderConformance,
  codex: {
    // Each home (a folder of homes is no one's: core's discoverAll searches it for them).
    fixtures: readdirSync(codexFixtures, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) =>
        join(codexFixtures, e.name, existsSync(join(codexFixtures, e.name, 'codex-home')) ? 'codex-home' : ''),
      ),
    knownUnpaired: {
      call_YnKEQqRKzBKVKdB5cG9fDSV7: '0.50 interrupt: Ctrl-C during the command, and 0.50 writes no output for it',
      call_hPBcwEnS3nfLbMn9KWInCN3y: '0.169 killed: the client was killed (SIGKILL) while the command ran',
    },
  },
};

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdash-conformance-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.each(agentAdapters.map((adapter) => [adapter.id, adapter] as const))('adapter %s', (id, adapter) => {
  const options = perAgent[id];
  it('has bundled fixtures', () => {
    expect(options?.fixtures.filter((dir) => existsSync(dir)).length).toBeGreaterThan(0);
  });
  const cases = conformanceCases({ adapter, fixtures: options?.fixtures ?? [], scratchDir: '', ...options });
  for (const { check, skipReason } of cases) {
    it.skipIf(skipReason !== undefined)(
      skipReason === undefined ? check : `${check} (skipped: ${skipReason})`,
      async () => {
        const run = conformanceCases({ adapter, fixtures: [], ...options, scratchDir: join(scratch, id) }).find(
          (c) => c.check === check,
        );
        expect(await run?.run()).toEqual([]);
      },
    );
  }
});
