import { discoverAll, groupSessions, loadSession, openSessionStream, type SessionFiles } from '@agentdash/core';
import { redactIdentifiers, redactSession } from '@agentdash/core/secrets';
import { coveringSample } from '@agentdash/testing/covering-sample';
import { bundledHomes, fullTests, sharedHomes } from '@agentdash/testing/shared';
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

/**
 * Every output, loaded whole and streamed, side by side. One stream gives them all (a stream is read again for each
 * output: its opening pass, which gathers what every output needs, is done once).
 */
async function outputsOf(group: SessionFiles): Promise<Record<string, readonly [string, string]>> {
  const loaded = await loadSession(group);
  const redacted = redactSession(loaded);
  const streamed = await openSessionStream(group);
  const { found, report } = await redactionOfStream(streamed);
  return {
    json: [await textOf(jsonChunks(loaded)), await textOf(sessionJsonChunks(streamed))],
    'show --json': [
      await textOf(jsonChunks(redactIdentifiers(loaded))),
      await textOf(sessionJsonChunks(streamed, identifierParts(await identifierSecretsOfStream(streamed)))),
    ],
    'export json': [
      await textOf(jsonChunks(redacted.session)),
      await textOf(sessionJsonChunks(streamed, redactedParts(found))),
    ],
    envelope: [
      await textOf(envelopeLines(redacted.session)),
      await textOf(envelopeStreamLines(streamed.calls(), redactedParts(found).call)),
    ],
    markdown: [
      await textOf(markdownChunks(redacted.session)),
      await textOf(markdownChunks(await markdownSourceOfStream(streamed, redactedParts(found)))),
    ],
    report: [redacted.report.summary(), report.summary()],
  };
}

async function differencesIn(home: string, sample = false): Promise<string[]> {
  const out: string[] = [];
  const groups = groupSessions((await discoverAll([home])).files);
  for (const group of sample ? coveringSample(groups) : groups) {
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
    `%s (../shared, ${fullTests ? 'every session' : 'sessions showing every kind of record it holds'})`,
    async (home) => {
      expect(await differencesIn(home, true)).toEqual([]);
    },
    600_000,
  );
});
