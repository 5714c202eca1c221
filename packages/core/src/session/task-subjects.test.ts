import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverAll } from '../agents/discover-all.js';
import { groupSessions } from '../io/discover.js';
import type { ToolCall } from '../model/tool-call.js';
import { summarizeCall } from '../present/summarize-call.js';
import { loadSession } from './load-session.js';
import { openSessionStream } from './session-stream.js';
import { TaskSubjects } from './task-subjects.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Claude Code 2.1.330's task scenario (the bundled samples): two tasks created, updated, one asked of, one unknown. */
const tasks = join(repo, 'packages/cli/samples/claude-home/projects/-home-user-proj-tasks');

async function group() {
  const [one] = groupSessions((await discoverAll([tasks])).files);
  if (one === undefined) throw new Error('no sample session');
  return one;
}

const lines = (calls: readonly ToolCall[]) =>
  calls.filter((c) => c.name.startsWith('Task')).map((c) => summarizeCall(c, '/home/user/proj/tasks'));

describe("a TaskUpdate's task, named by id only", () => {
  it("is said by its subject, the creation's, in the loaded and the streamed session alike", async () => {
    const loaded = await loadSession(await group());
    const said = lines(loaded.calls);
    expect(said).toContain('TaskUpdate #1 Write the parser → in_progress');
    expect(said).toContain('TaskUpdate #1 Write the parser → completed');
    expect(said).toContain('TaskUpdate #2 Render the timeline');
    expect(said.some((line) => line.startsWith('TaskGet #1 Write the parser'))).toBe(true);
    // an id no call created stays an id (the client answered "Task not found")
    expect(said.some((line) => /^TaskUpdate #999(?! \w)/.test(line))).toBe(true);
    expect(said.some((line) => line.startsWith('TaskUpdate #999 →'))).toBe(false);
    const updates = loaded.calls.filter((c) => c.name === 'TaskUpdate');
    expect(updates.filter((c) => c.taskSubject !== undefined).length).toBe(updates.length - 1);

    const stream = await openSessionStream(await group());
    const streamed: ToolCall[] = [];
    for await (const call of stream.calls()) streamed.push(call);
    expect(streamed.map((c) => [c.id, c.taskSubject])).toEqual(loaded.calls.map((c) => [c.id, c.taskSubject]));
  });

  it('takes a rename (a TaskUpdate with a subject) as the name the task ends with; numbers as ids', () => {
    const subjects = new TaskSubjects();
    subjects.take('task-create', { subject: 'Old' }, { kind: 'task-create', data: { taskId: '3', subject: 'Old' } });
    expect(subjects.subjectOf('task-update', { taskId: 3 })).toBe('Old');
    subjects.take('task-update', { taskId: '3', subject: 'New name' }, undefined);
    expect(subjects.subjectOf('task-get', { taskId: '3' })).toBe('New name');
    // only the calls that name a task get one
    expect(subjects.subjectOf('task-create', { taskId: '3' })).toBeUndefined();
    expect(subjects.subjectOf('bash', { taskId: '3' })).toBeUndefined();
  });
});
