import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));
const codex = resolve(here, '../../../core/test/fixtures/codex');
const claudeSubagents = resolve(here, '../../../cli/samples/claude-home/projects/-home-user-proj-subagents');

describe('search --tool, by the rule of the agent whose file holds the call', () => {
  let dir: string;
  let index: AgentIndex;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-search-tool-'));
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(codex, '0.50.0/codex-home'), join(codex, '0.169.0/codex-home'), claudeSubagents]);
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds Codex 0.50's `shell` calls under their current name, `exec_command`, as statistics count them", async () => {
    const tools = async (tool: string) =>
      new Set((await index.search('echo', { tool, kind: 'tool-input', limit: 1000 })).map((h) => h.tool));
    // Was the 0.169 calls only: the filter took Claude Code's renames for every agent's tools.
    expect(await tools('exec_command')).toEqual(new Set(['exec_command', 'shell']));
    // and its former name the whole tool, as every tool filter takes one (core's `isOfTool`)
    expect(await tools('shell')).toEqual(new Set(['exec_command', 'shell']));
  });

  it("keeps Claude Code's renames: `Agent` finds the calls of its former name, `Task`", async () => {
    const hits = await index.search('report', { tool: 'Agent', limit: 100 });
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.tool)).has('Task')).toBe(true);
  });
});
