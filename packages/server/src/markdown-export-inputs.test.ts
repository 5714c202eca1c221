/**
 * The Markdown export writes a call's input where its one line leaves some of it out: a multi-line script or a long
 * command whole (with the description the model gave it), and any other input longer than its line as JSON (a plan's
 * steps, a subagent's prompt). It wrote the one line alone, cut at 60 characters (a review helper: the heredoc of
 * wild cpolar-connect-1, the steps of Codex's `update_plan`, Copilot's `bash` descriptions were in no export but
 * the JSON). A short input its line says whole gets no block.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverAll, groupSessions, loadSession } from '@agentdash/core';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { markdownChunks } from './export-formats.js';

const SESSION = 'cccccccc-0000-4000-8000-00000000e1a1';
const dir = mkdtempSync(join(tmpdir(), 'agentdash-md-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = "python - <<'PY'\nfrom click.testing import CliRunner\nprint(CliRunner().invoke(main, ['--help']))\nPY";
const STEPS = ['Inspect the project', 'Write the fix', 'Run the tests'];

it("writes a script, a long command's whole line, a plan's steps and a prompt; not a short input", async () => {
  const at = basesOf(SESSION);
  const calls: [string, string, unknown][] = [
    ['toolu_script', 'Bash', { command: SCRIPT, description: 'Check the CLI help' }],
    ['toolu_read', 'Read', { file_path: '/home/user/proj/demo/a.ts' }],
    ['toolu_todo', 'TodoWrite', { todos: STEPS.map((content) => ({ content, status: 'pending' })) }],
  ];
  const lines = [prompt(at('u0', null, 0), 'Go.')];
  calls.forEach(([id, name, input], i) => {
    lines.push(toolUse(at(`a${i}`, 'u0', 2 * i + 1), `msg_${i}`, id, name, input));
    lines.push(toolResult(at(`r${i}`, `a${i}`, 2 * i + 2), id, 'done', false));
  });
  writeLines(join(dir, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`), lines);
  const [group] = groupSessions((await discoverAll([dir])).files);
  if (group === undefined) throw new Error('no session');
  let md = '';
  for await (const piece of markdownChunks(await loadSession(group))) md += piece;

  // The script whole, fenced as shell, under the model's description of it.
  expect(md).toContain(`*Check the CLI help*\n\n\`\`\`sh\n${SCRIPT}\n\`\`\``);
  // The plan's steps, as the call wrote them.
  for (const step of STEPS) expect(md).toContain(`"content": "${step}"`);
  // The Read's line names its file whole: no block.
  const read = md.slice(md.indexOf('- **Read'), md.indexOf('- **', md.indexOf('- **Read') + 1));
  expect(read).not.toContain('```json');
});
