#!/usr/bin/env node
// Every session of the given homes written twice, byte for byte: loaded whole (`loadSession` → `jsonChunks`, the
// text `show --json` wrote before streaming) and streamed (`openSessionStream` → `sessionJsonChunks`). Prints the
// sessions that differ and exits 1 when any does. Usage: node bench/stream-compare.mjs HOME…  (after npm run build)
import { discoverAll, groupSessions, loadSession, openSessionStream } from '../packages/core/dist/index.js';
import { jsonChunks } from '../packages/server/dist/json-chunks.js';
import { sessionJsonChunks } from '../packages/server/dist/session-json.js';

const homes = process.argv.slice(2);
let sessions = 0;
let differ = 0;
for (const home of homes) {
  const { files } = await discoverAll([home]);
  for (const group of groupSessions(files)) {
    sessions++;
    const whole = [...jsonChunks(await loadSession(group))].join('');
    let streamed = '';
    for await (const chunk of sessionJsonChunks(await openSessionStream(group))) streamed += chunk;
    if (whole !== streamed) {
      differ++;
      let at = 0;
      while (at < whole.length && whole[at] === streamed[at]) at++;
      console.log(`DIFFERS ${group.main?.path ?? group.sessionId} at ${at}:`);
      console.log(`  whole:    ${JSON.stringify(whole.slice(Math.max(0, at - 80), at + 80))}`);
      console.log(`  streamed: ${JSON.stringify(streamed.slice(Math.max(0, at - 80), at + 80))}`);
    }
  }
}
console.log(`${sessions} sessions, ${differ} differ`);
process.exitCode = differ > 0 ? 1 : 0;
