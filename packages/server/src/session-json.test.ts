import { discoverAll, groupSessions, loadSession, openSessionStream, type SessionFiles } from '@agentdash/core';
import { redactIdentifiers, redactSession } from '@agentdash/core/secrets';
import { bundledHomes, fullTests, sampleSessions, sharedHomes } from '@agentdash/testing/shared';
import { describe, expect, it } from 'vitest';
import {
  envelopeLines,
  envelopeStreamLines,
  jsonChunks,
  markdownChunks,
  markdownSourceOfStream,
} from './export-formats.js';
import {
  identifierParts,
  identifierSecretsOfStream,
  redactedParts,
  redactionOfStream,
  sessionJsonChunks,
} from './session-json.js';

const bundled = bundledHomes;
if (sharedHomes.length === 0) console.log('[server] streamed sessions over ../shared: skipped (not present)');

async function textOf(chunks: Iterable<string> | AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** Every output, loaded whole and streamed, side by side. */
async function outputsOf(group: SessionFiles): Promise<Record<string, readonly [string, string]>> {
  const loaded = await loadSession(group);
  const redacted = redactSession(loaded);
  const plain = await openSessionStream(group);
  const shown = await openSessionStream(group);
  const exported = await openSessionStream(group);
  const { found, report } = await redactionOfStream(exported);
  return {
    json: [await textOf(jsonChunks(loaded)), await textOf(sessionJsonChunks(plain))],
    'show --json': [
      await textOf(jsonChunks(redactIdentifiers(loaded))),
      await textOf(sessionJsonChunks(shown, identifierParts(await identifierSecretsOfStream(shown)))),
    ],
    'export json': [
      await textOf(jsonChunks(redacted.session)),
      await textOf(sessionJsonChunks(exported, redactedParts(found))),
    ],
    envelope: [
      await textOf(envelopeLines(redacted.session)),
      await textOf(envelopeStreamLines(exported.calls(), redactedParts(found).call)),
    ],
    markdown: [
      await textOf(markdownChunks(redacted.session)),
      await textOf(markdownChunks(await markdownSourceOfStream(exported, redactedParts(found)))),
    ],
    report: [redacted.report.summary(), report.summary()],
  };
}

async function differencesIn(home: string, sample = false): Promise<string[]> {
  const out: string[] = [];
  const groups = groupSessions((await discoverAll([home])).files);
  for (const group of sample ? sampleSessions(groups) : groups) {
    for (const [what, [whole, streamed]] of Object.entries(await outputsOf(group))) {
      if (whole !== streamed) out.push(`${what} of ${group.main?.path ?? group.sessionId}`);
    }
  }
  return out;
}

describe('a session streamed equals the session loaded, in every output', () => {
  it.each(bundled)('%s', async (home) => {
    expect(await differencesIn(home)).toEqual([]);
  });
  it.skipIf(sharedHomes.length === 0).each(sharedHomes)(
    `%s (../shared, ${fullTests ? 'every session' : 'a sample of its sessions'})`,
    async (home) => {
      expect(await differencesIn(home, true)).toEqual([]);
    },
    600_000,
  );
});
