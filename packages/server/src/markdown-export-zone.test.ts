/**
 * The Markdown export's times are local, so their zone goes with them: the page is read elsewhere, and a server writes
 * its own zone's times (a review: `- Time: Oct 24 17:59 → …`, no zone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverAll, groupSessions, loadSession } from '@agentdash/core';
import { zoneLabel } from '@agentdash/core/present';
import { basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { markdownChunks } from './export-formats.js';

const SESSION = 'cccccccc-0000-4000-8000-0000000020e1';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-md-zone-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("writes the session's time with its zone", async () => {
  writeLines(join(dir, 'projects', 'p', `${SESSION}.jsonl`), [prompt(basesOf(SESSION)('u0', null, 0), 'Go.')]);
  const [group] = groupSessions((await discoverAll([dir])).files);
  if (group === undefined) throw new Error('no session');
  let md = '';
  for await (const piece of markdownChunks(await loadSession(group))) md += piece;
  // the suites run in UTC
  expect(md).toContain('- Time: Jan 2 10:00 → Jan 2 10:00 (UTC)\n');
});

it('names an offset as UTC±hh:mm, at the time given (summer and winter alike)', () => {
  const before = process.env.TZ;
  try {
    // Node reads TZ again when it changes
    process.env.TZ = 'Europe/Berlin';
    expect([zoneLabel('2026-07-01T10:00:00Z'), zoneLabel('2026-01-02T10:00:00Z')]).toEqual(['UTC+02:00', 'UTC+01:00']);
    process.env.TZ = 'America/St_Johns';
    expect(zoneLabel('2026-01-02T10:00:00Z')).toBe('UTC−03:30');
  } finally {
    process.env.TZ = before;
  }
  expect(zoneLabel(undefined)).toBe('');
  expect(zoneLabel('not a time')).toBe('');
});
