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

type Chunks = Iterable<string> | AsyncIterable<string>;

async function textOf(chunks: Chunks): Promise<string> {
  const pieces: string[] = [];
  for await (const chunk of chunks) pieces.push(chunk);
  return pieces.join('');
}

/**
 * Whether `chunks` write exactly `text`: each piece compared in place as it comes, the pieces never joined (a large
 * session's outputs are tens of megabytes each).
 */
async function writes(chunks: Chunks, text: string): Promise<boolean> {
  let at = 0;
  for await (const chunk of chunks) {
    if (!text.startsWith(chunk, at)) return false;
    at += chunk.length;
  }
  return at === text.length;
}

/**
 * Every output, loaded whole (its text) and streamed (its pieces, when asked for), side by side. One stream gives them
 * all (a stream is read again for each output: its opening pass, which gathers what every output needs, is done once).
 */
async function outputsOf(group: SessionFiles): Promise<Record<string, readonly [string, () => Chunks]>> {
  const loaded = await loadSession(group);
  const redacted = redactSession(loaded);
  const json = await textOf(jsonChunks(loaded));
  // redactIdentifiers copies only what it changes: the session itself when nothing is hidden, and so the same text
  const identified = redactIdentifiers(loaded);
  const showJson = identified === loaded ? json : await textOf(jsonChunks(identified));
  const streamed = await openSessionStream(group);
  const { found, report } = await redactionOfStream(streamed);
  return {
    json: [json, () => sessionJsonChunks(streamed)],
    'show --json': [
      showJson,
      async function* () {
        yield* sessionJsonChunks(streamed, identifierParts(await identifierSecretsOfStream(streamed)));
      },
    ],
    'export json': [
      await textOf(jsonChunks(redacted.session)),
      () => sessionJsonChunks(streamed, redactedParts(found)),
    ],
    envelope: [
      await textOf(envelopeLines(redacted.session)),
      () => envelopeStreamLines(streamed.calls(), redactedParts(found).call),
    ],
    markdown: [
      await textOf(markdownChunks(redacted.session)),
      async function* () {
        yield* markdownChunks(await markdownSourceOfStream(streamed, redactedParts(found)));
      },
    ],
    report: [redacted.report.summary(), () => [report.summary()]],
  };
}

async function differencesIn(home: string, sample = false): Promise<string[]> {
  const out: string[] = [];
  const groups = groupSessions((await discoverAll([home])).files);
  for (const group of sample ? coveringSample(groups) : groups) {
    for (const [what, [whole, streamed]] of Object.entries(await outputsOf(group))) {
      if (!(await writes(streamed(), whole))) out.push(`${what} of ${group.main?.path ?? group.sessionId}`);
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
