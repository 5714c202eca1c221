import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT, SESSION, toolResult, toolUse, writeDemoHome, writeLines } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import { AmbiguousSessionError, HIGHLIGHT_END, HIGHLIGHT_START, openIndex } from './index.js';

const t = useTempIndex();

describe('sessions, search, issues', () => {
  it('summarises sessions and finds text only in a tool output and only in a subagent file', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), {
      outputOnlyWord: 'zanzibarquux',
      subagentOnlyWord: 'quokkafrost',
    });
    await t.index.refresh([demo.home]);
    const [session] = t.index.listSessions({ paths: [demo.home] });
    expect(session).toMatchObject({
      id: SESSION,
      projectPath: '/home/user/proj/demo',
      title: 'Please run the tests and survey the code.',
      titleSource: 'first-prompt',
      toolCalls: 3,
      errors: 1,
      versions: ['2.1.330'],
      models: ['claude-opus-5-5'],
      subagents: 1,
      // Just written, but its records are from long ago and nothing was appended while watched: not live.
      isLive: false,
    });
    expect(session?.durationMs).toBe(10_000);

    const output = await t.index.search('zanzibarquux');
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ sessionId: SESSION, kind: 'tool-output', tool: 'Bash', callId: 'toolu_bash1' });
    expect(output[0]?.snippet).toContain(`${HIGHLIGHT_START}zanzibarquux${HIGHLIGHT_END}`);

    const sub = await t.index.search('quokkafrost');
    expect(sub).toHaveLength(1);
    expect(sub[0]).toMatchObject({ sessionId: SESSION, kind: 'assistant', agentId: AGENT });
    expect(sub[0]?.file).toBe(demo.sub);

    expect(await t.index.search('zanzibarquux', { tool: 'Read' })).toEqual([]);
    expect((await t.index.search('npm test', { kind: 'tool-input' }))[0]).toMatchObject({ tool: 'Bash' });

    const loaded = await t.index.loadSession(SESSION);
    expect(loaded.calls).toHaveLength(3);
    expect(t.index.getSession(SESSION.slice(0, 6))?.id).toBe(SESSION);
    expect(t.index.sessionFiles(SESSION)?.subagents).toHaveLength(1);
  });

  it('stores malformed lines as issues with file and line', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    appendFileSync(demo.main, '{not json\n');
    const report = await t.index.refresh([demo.home]);
    expect(report.issues).toBe(1);
    expect(t.index.issues({ sessionId: SESSION })).toMatchObject([{ code: 'invalid_json', file: demo.main, line: 7 }]);
    expect(t.index.getSession(SESSION)?.issues).toBe(1);
  });

  it('rejects an ambiguous prefix', async () => {
    const home = join(t.dir, 'home');
    const base = { timestamp: '2026-01-02T10:00:00.000Z' };
    for (const id of ['abc11111-0000-4000-8000-000000000000', 'abc22222-0000-4000-8000-000000000000']) {
      writeLines(join(home, 'projects', '-p', `${id}.jsonl`), [
        toolUse({ ...base, sessionId: id, uuid: `u-${id}` }, 'm', `t-${id}`, 'Bash', { command: 'ls' }),
      ]);
    }
    await t.index.refresh([home]);
    expect(() => t.index.getSession('abc')).toThrow(AmbiguousSessionError);
    expect(t.index.getSession('abc1')?.id).toBe('abc11111-0000-4000-8000-000000000000');
    expect(t.index.getSession('zzz')).toBeUndefined();
  });

  it('names at most 200 sessions of an ambiguous prefix, and says it matched more', async () => {
    const home = join(t.dir, 'many');
    const base = { timestamp: '2026-01-02T10:00:00.000Z' };
    for (let i = 0; i < 201; i++) {
      const id = `dd${String(i).padStart(6, '0')}-0000-4000-8000-000000000000`;
      writeLines(join(home, 'projects', '-p', `${id}.jsonl`), [
        toolUse({ ...base, sessionId: id, uuid: `u-${i}` }, 'm', `t-${i}`, 'Bash', { command: 'ls' }),
      ]);
    }
    await t.index.refresh([home]);
    const error = (() => {
      try {
        t.index.getSession('dd');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AmbiguousSessionError);
    const ambiguous = error as AmbiguousSessionError;
    expect(ambiguous.candidates).toHaveLength(200);
    expect(ambiguous.more).toBe(true);
    expect(ambiguous.message).toMatch(/^session "dd" matches more than 200 sessions; name one of them: .*, …/);
  });
});

describe('live sessions and session identity', () => {
  it('is live when records were appended while watched or its newest record is recent, not for a fresh copy', async () => {
    const home = join(t.dir, 'live-home');
    const file = join(home, 'projects', '-p', `${SESSION}.jsonl`);
    const old = { sessionId: SESSION, timestamp: '2026-01-02T10:00:00.000Z' };
    writeLines(file, [toolUse({ ...old, uuid: 'a1' }, 'm1', 'toolu_a', 'Bash', { command: 'ls' })]);
    await t.index.refresh([home]);
    expect(t.index.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);
    expect(t.index.calls({ paths: [home] })).toMatchObject([{ status: 'unanswered' }]);

    // Appended an hour ago, read only now (a CLI run later): not being written now.
    appendFileSync(file, `${toolUse({ ...old, uuid: 'a0' }, 'm0', 'toolu_0', 'Bash', { command: 'id' })}\n`);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(file, anHourAgo, anHourAgo);
    await t.index.refresh([home]);
    expect(t.index.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);

    // A record appended (still with an old timestamp) just now: being written now.
    appendFileSync(file, `${toolUse({ ...old, uuid: 'a2' }, 'm2', 'toolu_b', 'Bash', { command: 'pwd' })}\n`);
    await t.index.refresh([home]);
    expect(t.index.listSessions({ paths: [home] })).toMatchObject([{ isLive: true }]);
    expect((await t.index.loadSession(SESSION)).calls.map((c) => c.status)).toEqual([
      'unanswered',
      'unanswered',
      'pending',
    ]);

    // Ten minutes later nothing more was written: no longer live.
    const later = openIndex({ dbPath: join(t.dir, 'db', 'index.sqlite'), now: () => Date.now() + 10 * 60_000 });
    expect(later.listSessions({ paths: [home] })).toMatchObject([{ isLive: false }]);
    later.close();
  });

  it('keeps same-named files in different project folders apart, and names each by a reference', async () => {
    const home = join(t.dir, 'checkpoints');
    const lines = (cwd: string) => [
      JSON.stringify({
        type: 'user',
        uuid: `u-${cwd}`,
        parentUuid: null,
        sessionId: 'full',
        cwd,
        timestamp: '2026-01-02T10:00:00.000Z',
        message: { role: 'user', content: `work in ${cwd}` },
      }),
      toolUse(
        { sessionId: 'full', timestamp: '2026-01-02T10:00:01.000Z', uuid: `a-${cwd}` },
        `m-${cwd}`,
        `toolu_${cwd}`,
        'Bash',
        { command: 'ls' },
      ),
    ];
    writeLines(join(home, 'projects', 'one', 'full.jsonl'), lines('one'));
    writeLines(join(home, 'projects', 'two', 'full.jsonl'), lines('two'));
    await t.index.refresh([home]);
    const sessions = t.index.listSessions({ paths: [home] });
    expect(sessions.map((s) => [s.id, s.ref, s.title, s.toolCalls]).sort()).toEqual([
      ['full', 'full@one', 'work in one', 1],
      ['full', 'full@two', 'work in two', 1],
    ]);
    expect(() => t.index.getSession('full')).toThrow(/name one of them: full@one, full@two/);
    expect(() => t.index.getSession('fu')).toThrow(AmbiguousSessionError);
    expect(t.index.getSession('two/full')?.projectDir).toBe(join(home, 'projects', 'two'));
    // Looked up under a path, a bare id names the one session there.
    expect(t.index.getSession('full', { paths: [join(home, 'projects', 'one')] })?.ref).toBe('full@one');
    expect(t.index.getSession(join(home, 'projects', 'one', 'full'))?.ref).toBe('full@one');
    expect((await t.index.loadSession('full@one')).calls.map((c) => c.id)).toEqual(['toolu_one']);
    expect(t.index.sessionIdOfFile(join(home, 'projects', 'two', 'full.jsonl'))).toBe('full@two');
    expect(t.index.calls({ sessionId: 'full@two' }).map((c) => [c.callId, c.sessionId, c.sessionRef])).toEqual([
      ['toolu_two', 'full', 'full@two'],
    ]);
  });

  it('gives a call copied into a fork to the original session, whichever file is read first', async () => {
    const home = join(t.dir, 'fork-home');
    const at = (s: number) => `2026-01-02T10:00:${String(s).padStart(2, '0')}.000Z`;
    const history = (sessionId: string) => [
      toolUse({ sessionId, timestamp: at(1), uuid: 'h1' }, 'm1', 'toolu_h1', 'Bash', { command: 'ls' }),
      toolResult({ sessionId, timestamp: at(2), uuid: 'h2' }, 'toolu_h1', 'ok', false),
    ];
    // The fork's path sorts first, so it is imported first; its own first line is written later.
    const fork = '00000000-0000-4000-8000-00000000f0e4';
    const original = 'ffffffff-0000-4000-8000-0000000000a1';
    writeLines(join(home, 'projects', '-p', `${original}.jsonl`), [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: original, timestamp: at(0) }),
      ...history(original),
    ]);
    writeLines(join(home, 'projects', '-p', `${fork}.jsonl`), [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId: fork, timestamp: at(30) }),
      ...history(fork),
      toolUse({ sessionId: fork, timestamp: at(31), uuid: 'f1' }, 'm9', 'toolu_f1', 'Bash', { command: 'pwd' }),
    ]);
    await t.index.refresh([home]);
    const calls = Object.fromEntries(t.index.listSessions({ paths: [home] }).map((s) => [s.id, s.toolCalls]));
    expect(calls).toEqual({ [original]: 1, [fork]: 1 });
    expect(t.index.calls({ sessionId: original }).map((c) => c.callId)).toEqual(['toolu_h1']);
  });
});
