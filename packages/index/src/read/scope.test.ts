/**
 * What a path scope selects: a folder and what is under it, never a folder whose name merely starts the same way
 * (`proj-b`, `proj.c`, `proj0`: the characters just before and after the separator). And a refresh scoped to some
 * folders (`onlyUnder`, the server's refresh after an append) leaves the other folders' files alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { repoRoot } from '@agentdash/testing/shared';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

let dir: string;
let ix: AgentIndex;
/** The folder scoped to, and its namesakes, each a Claude home with one session whose prompt names the home. */
const HOMES = ['proj', 'proj-b', 'proj.c', 'proj0', 'pro'] as const;
const sessionOf = (i: number) => `${String(i + 1).padStart(8, '0')}-aaaa-4bbb-8ccc-dddddddddddd`;
const homeOf = (name: string) => join(dir, name);
const fileOf = (i: number) => join(homeOf(HOMES[i] as string), 'projects', '-work-app', `${sessionOf(i)}.jsonl`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-scope-'));
  HOMES.forEach((name, i) => {
    const b = basesOf(sessionOf(i));
    writeLines(fileOf(i), [
      prompt(b('u1', null, 0), `scopeword in ${name}`),
      toolUse(b('a1', 'u1', 1), 'msg_1', `toolu_${i}`, 'Bash', { command: 'false' }),
      toolResult(b('r1', 'a1', 2), `toolu_${i}`, 'Exit code 1', true),
    ]);
  });
  ix = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  ix.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a path scope', () => {
  it('selects the folder and what is under it, not its namesakes', async () => {
    await ix.refresh(HOMES.map(homeOf));
    const proj = homeOf('proj');
    expect(ix.listSessions({}).length).toBe(HOMES.length);
    expect(ix.listSessions({ paths: [proj] }).map((s) => s.id)).toEqual([sessionOf(0)]);
    // The file itself, and a folder inside.
    expect(ix.listSessions({ paths: [fileOf(0)] }).map((s) => s.id)).toEqual([sessionOf(0)]);
    expect(ix.listSessions({ paths: [join(proj, 'projects')] }).map((s) => s.id)).toEqual([sessionOf(0)]);
    // A trailing separator names the same folder.
    expect(ix.listSessions({ paths: [`${proj}/`] }).map((s) => s.id)).toEqual([sessionOf(0)]);
    const hits = await ix.search('scopeword', { paths: [proj] });
    expect(hits.map((h) => h.sessionId)).toEqual([sessionOf(0)]);
    expect(ix.stats({ paths: [proj] }).calls).toBe(1);
    expect(ix.stats({ paths: [homeOf('proj0'), homeOf('pro')] }).calls).toBe(2);
  });

  it('selects a folder whose name holds characters outside the BMP (one character to SQLite, two to JavaScript)', async () => {
    const home = join(dir, 'emoji-😀');
    const sid = 'eeeeeeee-aaaa-4bbb-8ccc-dddddddddddd';
    writeLines(join(home, 'projects', '-work-app', `${sid}.jsonl`), [prompt(basesOf(sid)('u1', null, 0), 'hi')]);
    await ix.refresh([...HOMES.map(homeOf), home]);
    expect(ix.listSessions({ paths: [home] }).map((s) => s.id)).toEqual([sid]);
    expect(ix.listSessions({ paths: [join(home, 'projects')] }).map((s) => s.id)).toEqual([sid]);
  });

  it('scoped refresh (onlyUnder) looks only at the folders named; a full one drops a file gone anywhere', async () => {
    const all = HOMES.map(homeOf);
    await ix.refresh(all, { archive: false });
    rmSync(fileOf(1));
    // The refresh of `proj` alone leaves `proj-b`'s session, whose file is gone, to a refresh of its own.
    const scoped = await ix.refresh([homeOf('proj')], { archive: false, onlyUnder: true });
    expect(scoped).toMatchObject({ files: 1, sessions: 1, filesRemoved: 0 });
    expect(ix.listSessions({}).length).toBe(HOMES.length);
    // Unscoped, a refresh of one folder drops a file gone from any other (not archived).
    const full = await ix.refresh([homeOf('proj')], { archive: false });
    expect(full.filesRemoved).toBe(1);
    expect(ix.listSessions({}).map((s) => s.id)).not.toContain(sessionOf(1));
    expect(ix.listSessions({}).length).toBe(HOMES.length - 1);
  });

  it("counts a call in a folder that holds only a resume's copy of it (its fact is the first file's)", async () => {
    const home = join(dir, 'copies');
    const original = '0000000a-aaaa-4bbb-8ccc-dddddddddddd';
    const resumed = '0000000b-aaaa-4bbb-8ccc-dddddddddddd';
    const folderA = join(home, 'projects', '-work-a');
    const folderB = join(home, 'projects', '-work-b');
    const call = (sessionId: string) => {
      const b = basesOf(sessionId);
      return [
        prompt(b('u1', null, 0), 'run the check'),
        toolUse(b('a1', 'u1', 1), 'msg_1', 'toolu_copied', 'Bash', { command: 'false' }),
        toolResult(b('r1', 'a1', 2), 'toolu_copied', 'Exit code 1', true),
      ];
    };
    writeLines(join(folderA, `${original}.jsonl`), call(original));
    // The resumed session starts with a copy of the first one's records (same call id, same times).
    writeLines(join(folderB, `${resumed}.jsonl`), [
      ...call(resumed),
      prompt(basesOf(resumed)('u2', 'r1', 30), 'go on'),
    ]);
    await ix.refresh([home]);
    const analyticsOf = (paths: readonly string[]) => ix.analytics({ paths, bucketMs: 3_600_000 });
    for (const paths of [[folderA], [folderB], [home]]) {
      expect(ix.stats({ paths }).calls, paths[0]).toBe(1);
      expect(analyticsOf(paths).calls, paths[0]).toBe(1);
      expect(ix.calls({ paths }).map((c) => c.callId)).toEqual(['toolu_copied']);
    }
    // A project chosen with paths that hold every file (what the dashboard asks): the resumed session's project
    // counts the call it copied, as under its own folder, and so does the first one's.
    for (const project of ['-work-a', '-work-b']) {
      for (const paths of [[home], [folderA, folderB]]) {
        expect(ix.stats({ paths, project }).calls, project).toBe(1);
        expect(ix.analytics({ paths, project, bucketMs: 3_600_000 }).calls, project).toBe(1);
        expect(ix.calls({ paths, project }).length, project).toBe(1);
      }
    }
    // Both folders together still count the call once (one agent home).
    expect(ix.stats({ paths: [folderA, folderB] }).calls).toBe(1);
    expect(ix.stats({ paths: [homeOf('proj')] }).calls).toBe(0);
  });
});

describe('the errors filter', () => {
  it('selects the sessions with an error that was not expected', async () => {
    // beside the homes' sessions (each a failed `false`), one whose only error is a declined tool call (expected)
    const sid = '99999999-aaaa-4bbb-8ccc-dddddddddddd';
    const b = basesOf(sid);
    writeLines(join(homeOf('proj'), 'projects', '-work-app', `${sid}.jsonl`), [
      prompt(b('u1', null, 0), 'declined'),
      toolUse(b('a1', 'u1', 1), 'msg_9', 'toolu_declined', 'Bash', { command: 'rm -rf build' }),
      toolResult(
        b('r1', 'a1', 2),
        'toolu_declined',
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        true,
      ),
    ]);
    await ix.refresh(HOMES.map(homeOf));
    const all = ix.listSessions({});
    const declined = all.find((s) => s.id === sid);
    expect([declined?.errors, declined?.expectedErrors]).toEqual([1, 1]);
    const real = all.filter((s) => s.errors > s.expectedErrors).map((s) => s.key);
    expect(real).toHaveLength(HOMES.length);
    expect(
      ix
        .listSessions({ hasErrors: true })
        .map((s) => s.key)
        .sort(),
    ).toEqual(real.sort());
    expect(ix.listSessions({ hasErrors: false }).map((s) => s.key)).toEqual([declined?.key]);
  });
});

describe('a project filter', () => {
  it("matches the project's path and its folder's name, never the folders the home is in", async () => {
    await ix.refresh(HOMES.map(homeOf));
    const all = ix.listSessions({});
    expect(all).toHaveLength(HOMES.length);
    const ids = (project: string) => ix.listSessions({ project }).map((s) => s.key);
    // every session's folder is `<tmp>/agentdash-scope-…/<home>/projects/-work-app`, its project `/home/user/proj/demo`:
    // `scope` and `projects` name only folders the project's folder is in
    expect(ids('scope')).toEqual([]);
    expect(ids('projects')).toEqual([]);
    expect(ids('proj/demo')).toHaveLength(HOMES.length);
    expect(ids('work-app')).toHaveLength(HOMES.length);
    // a name's letters in either case, a path's letter for letter (the team server's filter too: same-numbers.test.ts)
    expect(ids('Work-APP')).toHaveLength(HOMES.length);
    expect(ids('PROJ/Demo')).toEqual([]);
    // a path (the dashboard's drill-down from a project known by its folder alone) is matched against the whole path
    const one = all.find((s) => s.projectDir.includes(`${homeOf('proj-b')}/`));
    expect(ids(one?.projectDir ?? 'missing')).toEqual([one?.key]);
    // as every query of a session filter reads it: the usage of a name no project has is empty
    expect(ix.usageResponses({ project: 'scope' })).toEqual([]);
    expect(ix.usageResponses({ project: 'work-app' }).length).toBeGreaterThan(0);
  });

  it("matches a folder's name only where the agent names the folder for its project", async () => {
    const fixtures = resolve(repoRoot, 'packages/core/test/fixtures');
    const codex = join(fixtures, 'codex/0.171.0/codex-home');
    const copilot = join(fixtures, 'copilot/1.0.102/copilot-home');
    await ix.refresh([...HOMES.map(homeOf), codex, copilot]);
    const all = ix.listSessions({});
    const of = (agent: string) => all.filter((s) => s.agent === agent);
    expect(of('codex').length).toBeGreaterThan(0);
    expect(of('copilot').length).toBeGreaterThan(0);
    const ids = (project: string) => ix.listSessions({ project }).map((s) => s.key);
    // Codex's and Copilot's sessions lie in folders every project shares: their names select none of them
    expect(new Set(of('codex').map((s) => basename(s.projectDir)))).toEqual(new Set(['sessions']));
    expect(new Set(of('copilot').map((s) => basename(s.projectDir)))).toEqual(new Set(['session-state']));
    expect(ids('sessions')).toEqual([]);
    expect(ids('SESSION-STATE')).toEqual([]);
    // each is still found by its own project's name
    for (const s of [...of('codex'), ...of('copilot')]) {
      const name = basename(s.projectPath ?? 'missing');
      expect(ids(name), name).toContain(s.key);
    }
    // Claude Code's folder is named for its project: its name selects the sessions whose path does not say it
    expect(ids('-WORK-app').sort()).toEqual(
      of('claude')
        .map((s) => s.key)
        .sort(),
    );
  });
});
