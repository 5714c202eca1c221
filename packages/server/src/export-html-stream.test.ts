/**
 * The HTML export of a session written as it is read (`streamHtmlChunks`) is the page of the session loaded whole
 * (`sessionHtmlChunks`), byte for byte: redacted (as exports are by default) and as it is. Over the bundled samples
 * and core's fixtures, and, when ../shared is present, a few sessions of each of its homes: those with subagents or
 * without their main file first (threads, where calls show, the main timeline made of subagents), smallest first,
 * so the suite stays short on a shared machine.
 */
import { statSync } from 'node:fs';
import { discoverAll, groupSessions, loadSession, openSessionStream, type SessionFiles } from '@agentdash/core';
import { redactSession } from '@agentdash/core/secrets';
import { bundledHomes, sharedHomes } from '@agentdash/testing/shared';
import { describe, expect, it } from 'vitest';
import { exportRedaction, sessionHtmlChunks } from './export-html.js';
import { streamHtmlChunks } from './export-html-stream.js';
import { redactedParts, redactionOfStream, sameParts } from './session-json.js';

const bundled = bundledHomes;
if (sharedHomes.length === 0) console.log('[server] streamed HTML exports over ../shared: skipped (not present)');

const assets = { js: 'document.title = "viewer";', css: 'body{color:red}' };
const exportedAt = '2026-11-29T12:00:00.000Z';

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** Sessions of each ../shared home compared. */
const PER_SHARED_HOME = 4;

/**
 * The page loaded whole and streamed, side by side, redacted (and as it is, when `plain`); one stream writes both (a
 * stream is read again for each page: its opening pass is done once).
 */
async function pagesOf(group: SessionFiles, plain: boolean): Promise<Record<string, readonly [string, string]>> {
  const loaded = await loadSession(group);
  const summary = { id: group.sessionId, title: loaded.title, projectPath: loaded.projectPath };
  const redacted = redactSession(loaded);
  const exported = await openSessionStream(group);
  const { found, report } = await redactionOfStream(exported);
  const html = (redact: boolean, r = redact ? redacted.report : undefined) =>
    [summary, assets, exportRedaction(redact, r), exportedAt] as const;
  return {
    redacted: [
      await textOf(sessionHtmlChunks(redacted.session, ...html(true))),
      await textOf(streamHtmlChunks(exported, redactedParts(found), ...html(true, report))),
    ],
    ...(plain && {
      'as it is': [
        await textOf(sessionHtmlChunks(loaded, ...html(false))),
        await textOf(streamHtmlChunks(exported, sameParts, ...html(false))),
      ],
    }),
  };
}

const sizeOf = (group: SessionFiles) => (group.main ? statSync(group.main.path).size : 0);
const threaded = (group: SessionFiles) => group.subagents.length > 0 || group.main === undefined;

/** The sessions of ../shared compared: `PER_SHARED_HOME` of each home, threaded ones first, smallest first. */
function sample(groups: SessionFiles[]): SessionFiles[] {
  return groups
    .sort((a, b) => Number(threaded(b)) - Number(threaded(a)) || sizeOf(a) - sizeOf(b))
    .slice(0, PER_SHARED_HOME);
}

async function differencesIn(home: string, all: boolean): Promise<string[]> {
  const out: string[] = [];
  const groups = groupSessions((await discoverAll([home])).files);
  for (const group of all ? groups : sample(groups)) {
    for (const [what, [whole, streamed]] of Object.entries(await pagesOf(group, all))) {
      if (whole !== streamed) out.push(`${what} of ${group.main?.path ?? group.sessionId}`);
    }
  }
  return out;
}

describe('the HTML export of a session streamed equals that of the session loaded', () => {
  it.each(bundled)('%s', async (home) => {
    expect(await differencesIn(home, true)).toEqual([]);
  });
  it.skipIf(sharedHomes.length === 0).each(sharedHomes)(
    '%s (../shared)',
    async (home) => {
      expect(await differencesIn(home, false)).toEqual([]);
    },
    120_000,
  );
});
