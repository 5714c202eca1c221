import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptersForPath } from '../../agents/adapters.js';
import type { RecordEvent } from '../../model/raw.js';
import { copilotAdapter } from './adapter.js';
import { copilotHome102 } from './test-helpers.js';

const session = '133c941b-d808-488e-85b4-9b6ab49f9bb4';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-copilot-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Copilot CLI discovery', () => {
  it('takes the home, its session-state folder, a session folder or the file, and only Copilot claims them', async () => {
    const state = join(copilotHome102, 'session-state');
    const file = join(state, session, 'events.jsonl');
    const counts: Record<string, number> = {};
    for (const root of [copilotHome102, state, join(state, session), file]) {
      const { files, issues } = await copilotAdapter.discover(root);
      expect(issues).toEqual([]);
      counts[root.slice(copilotHome102.length) || '/'] = files.length;
      expect((await adaptersForPath(root)).map((a) => a.id)).toEqual(['copilot']);
    }
    expect(counts).toEqual({
      '/': 8,
      '/session-state': 8,
      [`/session-state/${session}`]: 1,
      [`/session-state/${session}/events.jsonl`]: 1,
    });
    const [found] = (await copilotAdapter.discover(file)).files;
    expect({
      agent: found?.agent,
      sessionId: found?.sessionId,
      role: found?.role,
      projectDir: found?.projectDir,
    }).toEqual({
      agent: 'copilot',
      sessionId: session,
      role: 'main',
      projectDir: state,
    });
  });

  it('claims no other file named events.jsonl, and a home with an empty session-state is not one', async () => {
    writeFileSync(join(dir, 'events.jsonl'), '{}\n');
    mkdirSync(join(dir, 'home/session-state'), { recursive: true });
    expect(await copilotAdapter.recognizes(join(dir, 'events.jsonl'))).toBe(false);
    expect(await copilotAdapter.recognizes(join(dir, 'home'))).toBe(false);
    expect(copilotAdapter.defaultHomes({ COPILOT_HOME: '/p' }, '/home/u')).toEqual(['/p']);
    expect(copilotAdapter.defaultHomes({}, '/home/u')).toEqual(['/home/u/.copilot']);
  });
});

describe('Copilot CLI decoding', () => {
  it('keeps an unknown event raw with an issue, and reports bad lines with their line', async () => {
    const folder = join(dir, 'session-state/00000000-0000-4000-8000-000000000001');
    mkdirSync(folder, { recursive: true });
    const path = join(folder, 'events.jsonl');
    writeFileSync(
      path,
      [
        '{"type":"session.start","data":{"sessionId":"00000000-0000-4000-8000-000000000001","copilotVersion":"9.9.9","context":{"cwd":"/w"}},"id":"a","timestamp":"2026-01-01T00:00:00.000Z","parentId":null}',
        '{"type":"session.future_thing","data":{"x":1},"id":"b","timestamp":"2026-01-01T00:00:01.000Z","parentId":"a"}',
        '{not json',
        '[1]',
      ].join('\n'),
    );
    const [file] = (await copilotAdapter.discover(path)).files;
    const events: RecordEvent[] = [];
    await copilotAdapter.streamRecords(file!, (e) => events.push(e), {});
    expect(
      events.map((e) =>
        e.kind === 'issue'
          ? `${e.issue.code}@${e.issue.line}`
          : `${e.record.kind}:${'type' in e.record ? e.record.type : ''}`,
      ),
    ).toEqual([
      'meta:copilot:session.start',
      'unknown_record@2',
      'unknown:session.future_thing',
      'invalid_json@3',
      'not_an_object@4',
    ]);
  });
});
