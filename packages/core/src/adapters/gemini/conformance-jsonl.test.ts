import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { conformanceCases } from '../../agents/conformance.js';
import { geminiAdapter } from './adapter.js';
import { geminiFixtures, home061 } from './test-helpers.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agentdash-gemini-conformance-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

it('JSONL sessions and stream-json output account for every line as a record or an issue (replaced lines included)', async () => {
  const fixtures = [home061, join(geminiFixtures, 'wild/free5gc-compose-1'), join(geminiFixtures, 'stream-json')];
  const check = conformanceCases({ adapter: geminiAdapter, fixtures, scratchDir: scratch }).find(
    (c) => c.check === 'accounts for every line as a record or an issue',
  );
  expect(check?.skipReason).toBeUndefined();
  expect(await check?.run()).toEqual([]);
});
