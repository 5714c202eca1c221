/**
 * `GET /api/sessions/:id/files`: the files a session's file tools touched, each with its calls; checked against the
 * session's calls as `/calls` lists them (their tools and ids), over every bundled sample session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { CallsResponse, FilesResponse, SessionsResponse } from '../api-types.js';

const FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

let t: TestApp;
let sessions: SessionsResponse['sessions'];
beforeAll(async () => {
  t = await appOver([SAMPLES]);
  sessions = (await t.json<SessionsResponse>('/api/sessions?limit=1000')).sessions;
});
afterAll(() => t.close());

describe('a session’s files', () => {
  it('hold each of its file tools’ calls once, under the file it names', async () => {
    let files = 0;
    for (const s of sessions.filter((x) => x.toolCalls > 0)) {
      const ref = encodeURIComponent(s.id);
      const { calls } = await t.json<CallsResponse>(`/api/sessions/${ref}/calls`);
      const answer = await t.json<FilesResponse>(`/api/sessions/${ref}/files`);
      const fileCalls = calls.filter((c) => FILE_TOOLS.has(c.tool)).map((c) => c.callId);
      const linked = answer.files.flatMap((f) => f.callIds);
      // every file call under exactly one file (none of these sessions has a file called more than 50 times)
      expect([...linked].sort(), s.id).toEqual([...fileCalls].sort());
      expect(
        answer.files.reduce((n, f) => n + f.calls, 0),
        s.id,
      ).toBe(fileCalls.length);
      expect(new Set(answer.files.map((f) => f.path)).size, s.id).toBe(answer.files.length);
      files += answer.files.length;
    }
    expect(files).toBeGreaterThan(15);
  });

  it('name the working folder the paths are shown under', async () => {
    const s = sessions.find((x) => x.projectPath === '/home/user/proj/files');
    expect(s).toBeDefined();
    const answer = await t.json<FilesResponse>(`/api/sessions/${encodeURIComponent(s!.id)}/files`);
    expect(answer.projectPath).toBe('/home/user/proj/files');
    expect(answer.files.find((f) => f.path.endsWith('/edit-me.txt'))).toMatchObject({ edits: 2, failed: 3, calls: 6 });
  });

  it('are a 404 for a session the index does not know', async () => {
    const res = await t.app.request('/api/sessions/no-such-session/files', { headers: { host: '127.0.0.1:4317' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false });
  });
});
