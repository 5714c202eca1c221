/**
 * `stats --tool` (and every call filter) with a tool's former name selects the whole tool it is now: a review of the
 * CLI found `--tool Task` count the 51 calls written `Task` under the label "Agent (Task)", where the tool had 59
 * (8 written `Agent` by later clients).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
