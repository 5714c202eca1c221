#!/usr/bin/env node
// Every session of the given homes written twice, byte for byte: loaded whole (`loadSession` → `jsonChunks`, what
// show --json and export wrote before streaming, with their redactions) and streamed (`openSessionStream` →
// `sessionJsonChunks`, `envelopeStreamLines`). Prints what differs and exits
// 1 when anything does. Usage (after npm run build): node bench/stream-compare.mjs HOME…
import { discoverAll, groupSessions, loadSession, openSessionStream } from '../packages/core/dist/index.js';
import { redactIdentifiers, redactSession } from '../packages/core/dist/secrets/index.js';
import {
  envelopeLines,
  envelopeStreamLines,
  markdownChunks,
  markdownSourceOfStream,
} from '../packages/server/dist/export-formats.js';
import { jsonChunks } from '../packages/server/dist/json-chunks.js';
import {
  identifierParts,
  identifierSecretsOfStream,
  redactedParts,
  redactionOfStream,
  sessionJsonChunks,
} from '../packages/server/dist/session-json.js';

const join = async (chunks) => {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
};

const homes = process.argv.slice(2);
let sessions = 0;
let differ = 0;
for (const home of homes) {
  const { files } = await discoverAll([home]);
  for (const group of groupSessions(files)) {
    sessions++;
    const loaded = await loadSession(group);
    const open = () => openSessionStream(group);
    const redacted = redactSession(loaded);
    const pairs = {
      json: [[...jsonChunks(loaded)].join(''), await join(sessionJsonChunks(await open()))],
      'show --json': [
        [...jsonChunks(redactIdentifiers(loaded))].join(''),
        await (async () => {
          const stream = await open();
          return join(sessionJsonChunks(stream, identifierParts(await identifierSecretsOfStream(stream))));
        })(),
      ],
      ...(await (async () => {
        const stream = await open();
        const { found, report } = await redactionOfStream(stream);
        return {
          'export json': [
            [...jsonChunks(redacted.session)].join(''),
            await join(sessionJsonChunks(stream, redactedParts(found))),
          ],
          'export envelope': [
            [...envelopeLines(redacted.session)].join(''),
            await join(envelopeStreamLines(stream.calls(), redactedParts(found).call)),
          ],
          'export markdown': [
            await join(markdownChunks(redacted.session)),
            await join(markdownChunks(await markdownSourceOfStream(stream, redactedParts(found)))),
          ],
          report: [redacted.report.summary(), report.summary()],
        };
      })()),
    };
    for (const [what, [whole, streamed]] of Object.entries(pairs)) {
      if (whole === streamed) continue;
      differ++;
      let at = 0;
      while (at < whole.length && whole[at] === streamed[at]) at++;
      console.log(`DIFFERS (${what}) ${group.main?.path ?? group.sessionId} at ${at}:`);
      console.log(`  whole:    ${JSON.stringify(whole.slice(Math.max(0, at - 80), at + 80))}`);
      console.log(`  streamed: ${JSON.stringify(streamed.slice(Math.max(0, at - 80), at + 80))}`);
    }
  }
}
console.log(
  `${sessions} sessions, 6 outputs each (json, show --json, export json, envelope and markdown redacted, the report), ${differ} differ`,
);
process.exitCode = differ > 0 ? 1 : 0;
