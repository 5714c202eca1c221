import { join, relative } from 'node:path';
import { basesOf, nextSessionId, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { ExitCode } from './errors.js';
import type { SessionsJson } from './output/json-types.js';

const sb = cliSandbox();
const { cli, json } = sb;

const APP = '/home/user/proj/demo/src/app.ts';

/** A session whose one call is `tool` on `path`, answered. */
function session(home: string, tool: 'Read' | 'Edit', path: string): string {
  const id = nextSessionId();
  const b = basesOf(id);
  const input = tool === 'Read' ? { file_path: path } : { file_path: path, old_string: 'a', new_string: 'b' };
  writeLines(join(home, 'projects', '-home-user-proj-demo', `${id}.jsonl`), [
    prompt(b('u1', null, 0), `${tool} the file`),
    toolUse(b('a1', 'u1', 1), 'msg_1', `toolu_${id.slice(0, 8)}`, tool, input),
    toolResult(b('r1', 'a1', 2), `toolu_${id.slice(0, 8)}`, 'done', false),
  ]);
  return id;
}

let home: string;
let read: string;
let edited: string;
let other: string;
beforeAll(() => {
  home = join(sb.dir, 'home');
  read = session(home, 'Read', APP);
  edited = session(home, 'Edit', APP);
  other = session(home, 'Edit', '/home/user/proj/demo/src/xapp.ts');
});

const listed = async (...args: string[]) =>
  json<SessionsJson>(await cli(['sessions', home, '--json', ...args]))
    .sessions.map((s) => s.id)
    .sort();

describe('sessions --file', () => {
  it('lists the sessions that read or edited the file: its path, its end on whole segments, or climbing to it', async () => {
    const both = [read, edited].sort();
    expect(await listed('--file', APP)).toEqual(both);
    expect(await listed('--file', 'src/app.ts')).toEqual(both);
    expect(await listed('--file', 'app.ts')).toEqual(both);
    // A path relative to the current folder that climbs out of it: resolved there first.
    const climbing = relative(process.cwd(), APP);
    expect(climbing.startsWith('..')).toBe(true);
    expect(await listed('--file', climbing)).toEqual(both);
    expect(await listed('--file', 'xapp.ts')).toEqual([other]);
    expect(await listed('--file', 'pp.ts')).toEqual([]);
    expect(await listed('--file', '/home/user/proj/demo/src/none.ts')).toEqual([]);
  });

  it('keeps the sessions contract in --json, and the table counts them', async () => {
    const all = json<SessionsJson>(await cli(['sessions', home, '--json']));
    const filtered = json<SessionsJson>(await cli(['sessions', home, '--json', '--file', 'src/app.ts']));
    expect(Object.keys(filtered).sort()).toEqual(Object.keys(all).sort());
    expect(filtered.truncated).toBe(false);
    for (const s of filtered.sessions) expect(s).toEqual(all.sessions.find((a) => a.id === s.id));
    const table = await cli(['sessions', home, '--file', 'src/app.ts']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('2 sessions');
    expect(table.stdout).toContain(read.slice(0, 8));
    expect(table.stdout).not.toContain(other.slice(0, 8));
  });

  it('is a usage error without a path, and says how it matches in its help', async () => {
    const empty = await cli(['sessions', home, '--file', ' ']);
    expect(empty.code).toBe(ExitCode.badArguments);
    expect(empty.stderr).toContain('--file needs a path');
    const help = await cli(['sessions', '--help']);
    expect(help.stdout).toContain('--file PATH');
    expect(help.stdout).toContain('ends with it on whole segments');
  });
});
