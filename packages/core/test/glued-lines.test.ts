import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adapterForFile } from '../src/agents/adapters.js';
import { readAll } from '../src/agents/conformance-shared.js';
import { discoverAll } from '../src/agents/discover-all.js';
import { groupSessions } from '../src/io/discover.js';
import type { Session } from '../src/model/session.js';
import { loadSession } from '../src/session/load-session.js';
import { repoRoot } from './helpers.js';

const fixtures = join(repoRoot, 'packages/core/test/fixtures');

/** Every session of a home, loaded. */
async function sessionsOf(home: string): Promise<Session[]> {
  const { files } = await discoverAll([home]);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

/** The largest `.jsonl` under `dir`. */
function largestJsonl(dir: string): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => path.endsWith('.jsonl') && statSync(path).isFile());
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (largest === undefined) throw new Error(`no .jsonl under ${dir}`);
  return largest;
}

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

// Records written back to back on one line (`…}{"type":…`), as Entire's copies of transcripts hold some: each kept,
// said once (Claude Code's reader did so already; a Codex copy lost the call on the glued line and called its output
// an orphan).
describe.each([
  ['Codex 0.98', 'codex/0.98.0/codex-home'],
  ['Copilot CLI 1.0.102', 'copilot/1.0.102'],
  ['Gemini CLI 0.61', 'gemini/0.61.0/.gemini'],
  ['Qwen Code 0.24.4', 'qwen/0.24.4'],
])('%s: two lines glued into one', (_, home) => {
  it('keep every call and its result, with one glued_records issue at that line', async () => {
    const source = join(fixtures, home);
    scratch = mkdtempSync(join(tmpdir(), 'agentdash-glued-'));
    const copy = join(scratch, 'home');
    cpSync(source, copy, { recursive: true });
    const file = join(copy, relative(source, largestJsonl(source)));
    const lines = readFileSync(file, 'utf8').split('\n');
    // glue a line holding a call onto the line before it, one that makes a record of its own where there is one (a
    // Codex message and a call: each record's uuid is its line's)
    const call =
      /"(?:function_call|custom_tool_call|tool_use|toolRequests|tool\.execution_start|functionCall|toolCalls)"/;
    const afterItem = lines.findIndex(
      (line, i) => i > 1 && call.test(line) && /"response_item"/.test(lines[i - 1] ?? ''),
    );
    const at = afterItem > 1 ? afterItem : lines.findIndex((line, i) => i > 1 && call.test(line));
    expect(at).toBeGreaterThan(1);
    writeFileSync(file, [...lines.slice(0, at - 1), `${lines[at - 1]}${lines[at]}`, ...lines.slice(at + 1)].join('\n'));

    const callsOf = (sessions: readonly Session[]) =>
      sessions.flatMap((s) => s.calls.map((c) => `${c.id} ${c.name} ${c.status}`)).sort();
    const before = await sessionsOf(source);
    const after = await sessionsOf(copy);
    expect(callsOf(after)).toEqual(callsOf(before));
    const issues = after.flatMap((s) => s.issues).filter((i) => i.file === file);
    expect(issues.map((i) => [i.code, i.line])).toContainEqual(['glued_records', at]);
    expect(issues.filter((i) => i.code === 'invalid_json' || i.code === 'orphan_result')).toEqual([]);
    // each record of the line its own uuid, chained after the one before it (a review found a glued Codex line's two
    // records with one uuid, the second its own parent)
    const { files } = await discoverAll([file]);
    const glued = files.find((f) => f.path === file);
    if (glued === undefined) throw new Error('the glued file is not found');
    const { records } = await readAll(adapterForFile(glued), glued);
    const chain = records.flatMap((r) => ('uuid' in r && 'parentUuid' in r ? [r] : []));
    expect(new Set(chain.map((r) => r.uuid)).size).toBe(chain.length);
    expect(chain.filter((r) => r.parentUuid === r.uuid)).toEqual([]);
  });
});
