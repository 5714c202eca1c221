/**
 * A slash command Claude Code wrote as `local_command` system records (2.0.69, 2.1.218) reads as one it wrote as user
 * messages: "Command" with the command as typed, "Command output" with what it printed, nothing for an empty output.
 * It showed as "local command" notes holding the command's tags as fields ("command name: /remote-control") and an
 * empty note for a command that printed nothing. Over a real HTTP server on a fresh index (its header's count of
 * events shown by default from the index's rows, the events from the loaded session), and the Markdown export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverFiles, groupSessions, loadSession } from '@agentdash/core';
import { noteFields } from '@agentdash/core/present';
import { COMMAND_SESSION, writeCommandSession } from '@agentdash/testing/command-records';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { EventDto, EventsPage, SessionDetail } from './api-types.js';
import { markdownChunks } from './export-formats.js';

const HOST = { host: '127.0.0.1:4317' };
let dir: string;
let t: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-command-notes-'));
  writeCommandSession(join(dir, 'claude-home'));
  t = await appOver([join(dir, 'claude-home')]);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async <T>(path: string): Promise<T> => {
  const res = await t.app.request(path, { headers: HOST });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

describe("a slash command's system records", () => {
  it('show as the command typed and what it printed, and no note for an empty output', async () => {
    const page = await get<EventsPage>(`/api/sessions/${COMMAND_SESSION}/events`);
    const notes = page.events
      .filter((e): e is Extract<EventDto, { kind: 'note' }> => e.kind === 'note')
      .map((e) => [e.label, noteFields(e.text)]);
    expect(notes).toEqual([
      ['command', '/remote-control'],
      ['bridge_status', expect.stringMatching(/^\/remote-control is active/)],
      ['command', '/resume'],
      ['command-output', 'Resume cancelled'],
    ]);
    expect(page.events.map((e) => e.kind)).toEqual(['note', 'note', 'note', 'note', 'prompt', 'assistant']);
    // the header counts from the index's rows what the timeline shows
    const header = await get<SessionDetail>(`/api/sessions/${COMMAND_SESSION}`);
    expect(header.totalEvents).toBe(page.events.length);
  });

  it('are exported to Markdown as the commands a user typed', async () => {
    const [group] = groupSessions((await discoverFiles([join(dir, 'claude-home')])).files);
    if (!group) throw new Error('no session');
    let markdown = '';
    for await (const piece of markdownChunks(await loadSession(group))) markdown += piece;
    expect(markdown).toMatch(/## User · [^\n]*\n\n```\n\/remote-control\n```/);
    expect(markdown).toMatch(/## User · [^\n]*\n\n```\n\/resume\n```/);
    expect(markdown).toMatch(/\*Command output\* · [^\n]*\n\nResume cancelled/);
    expect(markdown).not.toMatch(/local command|command name:/);
  });
});
