import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexFixtures } from '../../../test/helpers.js';
import { discoverAll } from '../../agents/discover-all.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import { codexAdapter } from './adapter.js';
import { canonicalCodexToolName, parseCodexMcpName } from './tool-names.js';

/** The bundled 0.169 rollout whose MCP call is namespaced (`namespace: "mcp__rec"`, `name: "echo"`). */
const rollout169 = join(
  codexFixtures,
  '0.169.0/codex-home/sessions/2026/11/23/rollout-2026-11-23T00-57-38-01a205e8-9771-78f3-8eac-3f54806b333f.jsonl',
);

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** That rollout with its MCP call named as Codex names an app's tool: namespace per app, a name starting with `_`. */
async function callNames(namespace: string, name: string) {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-mcp-'));
  const sessions = join(dir, 'sessions/2026/11/23');
  mkdirSync(sessions, { recursive: true });
  const text = readFileSync(rollout169, 'utf8').replace(
    '"name":"echo","namespace":"mcp__rec"',
    `"name":${JSON.stringify(name)},"namespace":${JSON.stringify(namespace)}`,
  );
  expect(text).toContain(namespace);
  writeFileSync(join(sessions, 'rollout-2026-11-23T00-57-38-01a205e8-9771-78f3-8eac-3f54806b333f.jsonl'), text);
  const { files } = await discoverAll([dir]);
  const [group] = groupSessions(files);
  const session = await loadSession(group!);
  // The first MCP call of the rollout is the renamed one.
  return session.calls
    .filter((c) => c.name.startsWith('mcp__'))
    .slice(0, 1)
    .map((c) => [c.name, c.canonicalName, c.toolKind]);
}

describe('Codex MCP tool names', () => {
  it("an app's tool is named as Codex names it: `github_fetch_pr` on server `codex_apps`", async () => {
    // Was `mcp__codex_apps__github___fetch_pr` (namespace and name joined with a separator of our own).
    expect(await callNames('mcp__codex_apps__github', '_fetch_pr')).toEqual([
      ['mcp__codex_apps__github_fetch_pr', 'mcp__codex_apps__github_fetch_pr', 'mcp'],
    ]);
    expect(parseCodexMcpName('mcp__codex_apps__github_fetch_pr')).toEqual({
      server: 'codex_apps',
      tool: 'github_fetch_pr',
    });
  });

  it('a server namespace keeps its separator; a name stored with one too many becomes the same tool', async () => {
    expect(await callNames('mcp__rec', 'echo')).toEqual([['mcp__rec__echo', 'mcp__rec__echo', 'mcp']]);
    expect(canonicalCodexToolName('mcp__codex_apps__github___fetch_pr')).toBe('mcp__codex_apps__github_fetch_pr');
    expect(codexAdapter.canonicalToolName('mcp__rec__echo')).toBe('mcp__rec__echo');
  });

  it('a legacy rollout names an MCP tool `server__tool` (Aug 2025): an MCP call of that server', async () => {
    const legacy = join(codexFixtures, 'legacy/sessions/2025/08/30');
    const { files } = await discoverAll([legacy]);
    const [group] = groupSessions(files);
    const session = await loadSession(group!);
    // Was no kind: raw JSON in the timeline, the search engine's answer unread.
    const [call, ...others] = session.calls;
    const typed = call?.result?.typed;
    const data = typed !== undefined && 'data' in typed ? (typed.data as { server?: string; tool?: string }) : {};
    expect(others).toEqual([]);
    // Written `search__search.query`: named as later clients name it.
    expect([call?.name, call?.toolKind, call?.result?.typed?.kind, data.server, data.tool]).toEqual([
      'mcp__search__search.query',
      'mcp',
      'mcp',
      'search',
      'search.query',
    ]);
    expect(parseCodexMcpName('exec_command')).toBeUndefined();
    expect(parseCodexMcpName('__x')).toBeUndefined();
    expect(parseCodexMcpName('mcp__rec')).toBeUndefined();
  });

  it('a `__` name in a rollout with `session_meta` is no MCP call: only legacy rollouts wrote `server__tool`', async () => {
    // In ../shared (corpus 0.50/0.98/0.169, wild 0.34 → 0.145) every MCP tool is `mcp__…` (0.169: its namespace);
    // `server__tool` is only in the legacy rollouts. A namespace of Codex's own joined the same way is not a server.
    dir = mkdtempSync(join(tmpdir(), 'agentdash-codex-mcp-'));
    const sessions = join(dir, 'sessions/2026/11/23');
    mkdirSync(sessions, { recursive: true });
    const text = readFileSync(rollout169, 'utf8').replace(
      '"name":"echo","namespace":"mcp__rec"',
      '"name":"planner__draft_steps"',
    );
    writeFileSync(join(sessions, 'rollout-2026-11-23T00-57-38-01a205e8-9771-78f3-8eac-3f54806b333f.jsonl'), text);
    const { files } = await discoverAll([dir]);
    const [group] = groupSessions(files);
    const session = await loadSession(group!);
    // Was `mcp` on a server `planner`.
    expect(
      session.calls.filter((c) => c.name.startsWith('planner')).map((c) => [c.name, c.toolKind, c.result?.typed?.kind]),
    ).toEqual([['planner__draft_steps', undefined, 'unknown']]);
    expect(parseCodexMcpName('planner__draft_steps')).toBeUndefined();
  });
});
