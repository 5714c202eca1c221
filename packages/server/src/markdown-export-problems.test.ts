/**
 * What the Markdown export left out without a word (a review helper): an image a tool sent back (an MCP tool's, kept
 * by the HTML and JSON exports), the transcript's problems (a malformed line, listed by the HTML export and `show`),
 * and, since sessions count them, the requests to the model that failed. Over the bundled 2.1.330 recordings and a
 * transcript with a broken line; the loaded session and its stream write the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles, groupSessions, loadSession, openSessionStream } from '@agentdash/core';
import { basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { markdownChunks, markdownSourceOfStream } from './export-formats.js';
import { sameParts } from './session-json.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const projects = join(repoRoot, 'packages/core/test/fixtures/claude/claude-home/projects');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-md-problems-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Markdown of the session `prefix` under `folder`, from a load and from a stream (they must agree). */
async function markdownOf(folder: string, prefix: string): Promise<string> {
  const group = groupSessions((await discoverFiles([folder])).files).find((g) => g.sessionId.startsWith(prefix));
  if (group === undefined) throw new Error(`no session ${prefix} in ${folder}`);
  let loaded = '';
  for await (const chunk of markdownChunks(await loadSession(group))) loaded += chunk;
  let streamed = '';
  const stream = await openSessionStream(group);
  for await (const chunk of markdownChunks(await markdownSourceOfStream(stream, sameParts))) streamed += chunk;
  expect(streamed).toBe(loaded);
  return loaded;
}

it("names an image a tool's result holds", async () => {
  const md = await markdownOf(join(projects, '-home-user-proj-mcp'), '408b19ca');
  expect(md).toMatch(/^\*an image in its result\*$/m);
});

it("says the requests that failed in the session's figures", async () => {
  const md = await markdownOf(join(projects, '-home-user-proj-api'), '4da1eb3d');
  expect(md).toMatch(/^- Tool calls: 0 \(0 errors, 0 expected\); 1 failed API request$/m);
});

it("lists the transcript's problems after the timeline", async () => {
  const id = nextSessionId();
  const at = basesOf(id);
  const folder = join(dir, 'projects', '-home-user-proj-demo');
  writeLines(join(folder, `${id}.jsonl`), [prompt(at('u1', null, 0), 'Go on.'), '{"type":"assistant", broken']);
  const md = await markdownOf(folder, id.slice(0, 8));
  expect(md).toMatch(new RegExp(`## 1 problem in the transcript\\n\\n- \`[^\`]*${id}\\.jsonl:2\` invalid_json: `));
});
