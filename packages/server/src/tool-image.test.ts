/**
 * The image a Codex view_image call sent as a message of its own (before 0.169) is a note of the timeline with the
 * image drawn (`tool-image`), after the call: not a prompt (the list's count, the session's header).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIXEL_PNG, viewImageLines, writeRollout } from '@agentdash/testing/codex-rollout';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appOver, type TestApp } from '../test/app-harness.js';
import type { EventsPage } from './api-types.js';

const ID = '01a205ea-32e5-7d73-94dd-00000000a9e1';
let home: string;
let t: TestApp;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'agentdash-tool-image-'));
  writeRollout(home, ID, viewImageLines());
  t = await appOver([home]);
});
afterAll(async () => {
  await t?.close();
  await rm(home, { recursive: true, force: true });
});

it('shows the image as a note of the call, and counts one prompt', async () => {
  expect(t.index.listSessions().map((s) => [s.id, s.prompts])).toEqual([[ID, 1]]);
  const page = await t.json<EventsPage>(`/api/sessions/${ID}/events`);
  const shown = page.events.map((e) =>
    e.kind === 'note' ? [e.kind, e.label, e.images?.map((i) => i.kind)] : [e.kind],
  );
  expect(shown).toEqual([['prompt'], ['assistant'], ['note', 'tool-image', ['image']], ['assistant']]);
  const note = page.events.find((e) => e.kind === 'note');
  expect(note?.kind === 'note' && note.images?.[0]).toMatchObject({ kind: 'image' });
  expect(JSON.stringify(note)).toContain(PIXEL_PNG.slice('data:image/png;base64,'.length, 40));
});
