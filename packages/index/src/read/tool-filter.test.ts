/**
 * `stats --tool` (and every call filter) with a tool's former name selects the whole tool it is now: a review of the
 * CLI found `--tool Task` count the 51 calls written `Task` under the label "Agent (Task)", where the tool had 59
 * (8 written `Agent` by later clients).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userSays, writeRollout } from '@agentdash/testing/codex-rollout';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-tool-filter-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A session whose one call to start a subagent is written `name` (`Task` before Claude Code 2.1, `Agent` after). */
function session(project: string, id: string, name: string): void {
  const b = basesOf(id);
  writeLines(join(project, `${id}.jsonl`), [
    prompt(b('p', null, 1), 'Look around.'),
    toolUse(b('c', 'p', 2), `msg_${name}`, `toolu_${name}`, name, { description: 'look', prompt: 'look' }),
    toolResult(b('r', 'c', 3), `toolu_${name}`, 'Nothing odd.', false),
  ]);
}

it("a former name selects the whole tool, as the table's row that names it shows it", async () => {
  const project = join(dir, 'home/projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  session(project, '0a0a0a0a-1111-4222-8333-444444444444', 'Task');
  session(project, '0b0b0b0b-1111-4222-8333-444444444444', 'Agent');
  await index.refresh([join(dir, 'home')]);
  const whole = index.stats({}).byCanonical.Agent?.calls;
  expect(whole).toBe(2);
  // before: 1 (only the call written `Task`)
  expect(index.stats({ tool: 'Task' }).calls).toBe(2);
  expect(index.stats({ tool: 'Agent' }).calls).toBe(2);
  expect(index.calls({ tool: 'Task' }).length).toBe(2);
  expect(index.stats({ tool: 'Bash' }).calls).toBe(0);
});

// The review of this change: the rule took one call's canonical name of a written name (`LIMIT 1`), so `--tool shell`
// over a Claude Code tool named `shell` and Codex's `shell` (its `exec_command`) gave 1 or 2 calls by the order of
// indexing. Each agent's own rule now (core's `isOfTool`).
it("a former name is each agent's own: Codex's `shell` is its exec_command, a Claude Code tool `shell` stays itself", async () => {
  const project = join(dir, 'home/projects/-home-user-proj-demo');
  mkdirSync(project, { recursive: true });
  session(project, '0c0c0c0c-1111-4222-8333-444444444444', 'shell');
  session(project, '0a0a0a0a-1111-4222-8333-444444444444', 'Task');
  session(project, '0b0b0b0b-1111-4222-8333-444444444444', 'Agent');
  const codex = join(dir, 'codex');
  writeRollout(codex, '019a0000-1111-7222-8333-444444444444', [
    userSays(1, 'List it.'),
    [2, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_a' }],
    [3, 'response_item', { type: 'function_call_output', call_id: 'call_a', output: 'a' }],
    [4, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_b' }],
    [5, 'response_item', { type: 'function_call_output', call_id: 'call_b', output: 'Process exited with code 0\na' }],
  ]);
  await index.refresh([join(dir, 'home'), codex]);
  // the Claude call and both Codex calls; Codex's current name, its two calls alone
  expect(index.stats({ tool: 'shell' }).calls).toBe(3);
  expect(index.stats({ tool: 'exec_command' }).calls).toBe(2);
  const sessions = async (tool: string) =>
    new Set((await index.search('look', { tool, kind: 'tool-input', limit: 100 })).map((hit) => hit.sessionId)).size;
  // search takes a former name as the call filters do (before: 1 session for `Task`)
  expect([await sessions('Task'), await sessions('Agent')]).toEqual([2, 2]);
});
