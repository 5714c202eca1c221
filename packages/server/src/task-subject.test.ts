import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../test/app-harness.js';
import type { CallDto, EventsPage } from './api-types.js';

const TASKS = '2da3b937-577b-4db5-85cf-a2d1277064be';
let t: TestApp;
beforeAll(async () => {
  t = await appOver([join(SAMPLES, 'projects/-home-user-proj-tasks')]);
});
afterAll(() => t.close());

describe("a TaskUpdate's call in the API", () => {
  it("carries its task's subject, from the session's TaskCreate; an unknown task none", async () => {
    const page = await t.json<EventsPage>(`/api/sessions/${TASKS}/events`);
    const calls = page.events.flatMap((e) =>
      e.kind === 'assistant' ? e.items.filter((i): i is CallDto => i.kind === 'tool-call') : [],
    );
    const named = calls.filter((c) => c.name === 'TaskUpdate' || c.name === 'TaskGet');
    expect(named.map((c) => [c.name, (c.input as { taskId?: string }).taskId, c.taskSubject ?? null])).toEqual([
      ['TaskUpdate', '1', 'Write the parser'],
      ['TaskUpdate', '2', 'Render the timeline'],
      ['TaskGet', '1', 'Write the parser'],
      ['TaskUpdate', '1', 'Write the parser'],
      ['TaskGet', '999', null],
      ['TaskUpdate', '999', null],
    ]);
  });
});
