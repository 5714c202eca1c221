import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers.js';
import { loadSession } from '../../index.js';
import { groupSessions } from '../../io/discover.js';
import type { Session } from '../../model/session.js';
import { summarizeCall } from '../../present/summarize-call.js';
import { toEnvelope } from '../../results/envelope.js';
import { discoverGemini } from './discover.js';
import { home020, home061 } from './test-helpers.js';

/** The full Gemini corpus (real clients, scripted API), when present. */
const corpus061 = resolve(repoRoot, '../shared/corpus-agents/gemini/0.61.0/gemini-home/.gemini');
const corpus020 = resolve(repoRoot, '../shared/corpus-agents/gemini/0.20.2/gemini-home/.gemini');
/** The 0.20 edit scenario's project folder (named by the SHA-256 of /home/user/proj/edit). */
const edit020 = 'tmp/a8f598b623306bb65e0e29e2e046bfa3cb15a3a79370c8454e3b95bf16e56bb3';
/** The 0.20 MCP scenario's project folder (named by the SHA-256 of /home/user/proj/mcp). */
const mcp020 = 'tmp/b10b957b6d15a307016c8d83fdead75deaf8b41733e43d24f9791a138bcaec0f';

async function sessionsOf(path: string): Promise<Session[]> {
  const { files } = await discoverGemini(path);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

const summary = (s: Session) => ({
  agent: s.agent,
  title: s.title,
  projectPath: s.projectPath,
  calls: s.calls.map((c) => `${c.name}:${c.status}:${c.result?.typed.kind ?? '-'}`),
  prompts: s.counts.prompts,
  subagents: s.subagents.map((a) => ({
    key: a.key,
    linkedBy: a.linkedBy,
    parentCallId: a.parentCallId,
    prompt: a.prompt,
  })),
  issues: s.issues,
});

describe('Gemini sessions through the shared pipeline', () => {
  it('links a subagent file to the invoke_agent call that ran it', async () => {
    const [session] = await sessionsOf(join(home061, 'tmp/subagent'));
    expect(session && summary(session)).toEqual({
      agent: 'gemini',
      title: '[[rec:subagent]] Delegate a quick investigation of this project to a subagent.',
      projectPath: '/home/user/proj/subagent',
      calls: ['invoke_agent:ok:agent', 'list_directory:ok:ls', 'complete_task:ok:task-complete'],
      prompts: 1,
      subagents: [
        {
          key: '76200ef5-c0ea-4a38-b542-bca8ed4466a9',
          linkedBy: 'agent-id',
          parentCallId: 'invoke_agent__invoke_agent_1795393749695_0',
          prompt: '[[rec:sub-worker]] List the project files and report what src/ contains.',
        },
      ],
      issues: [],
    });
    expect(session?.calls.find((c) => c.name === 'invoke_agent')?.subagentKey).toBe(
      '76200ef5-c0ea-4a38-b542-bca8ed4466a9',
    );
  });

  it('a shell that exits non-zero is a failed call with its exit code (as in Claude Code); durations come from the client stamps', async () => {
    const [session] = await sessionsOf(join(home061, 'tmp/shell'));
    const exits = session?.calls.map((c) => [
      c.status,
      c.result?.typed.kind === 'bash' ? c.result.typed.data.exitCode : c.result?.error?.exitCode,
      c.result?.error?.category,
    ]);
    expect(exits).toEqual([
      ['ok', 0, undefined],
      ['error', 2, 'exit-code'],
      ['error', 3, 'exit-code'],
      ['ok', 0, undefined],
      ['ok', 0, undefined],
    ]);
    expect(session?.calls.every((c) => c.durations.length === 1 && (c.durations[0]?.ms ?? -1) >= 0)).toBe(true);
    expect(session?.counts.errors).toBe(2);
  });

  it.each([
    ['bundled', join(home061, 'tmp/mcp')],
    ...(existsSync(corpus061) ? [['corpus', join(corpus061, 'tmp/mcp')]] : []),
  ])(
    '%s 0.61: a failed MCP call keeps its server and tool; the tool reported it, an `other` error',
    async (_, path) => {
      const [session] = await sessionsOf(path);
      const mcp = session?.calls
        .filter((c) => c.toolKind === 'mcp')
        .map((c) => {
          const data = c.result?.typed.kind === 'mcp' ? c.result.typed.data : undefined;
          return [c.name, c.status, data?.server, data?.tool, c.result?.error?.category];
        });
      expect(mcp).toEqual([
        ['mcp_rec_echo', 'ok', 'rec', 'echo', undefined],
        ['mcp_rec_image', 'ok', 'rec', 'image', undefined],
        ['mcp_rec_fail', 'error', 'rec', 'fail', 'other'],
        ['mcp_rec_throws', 'error', 'rec', 'throws', 'other'],
      ]);
    },
  );

  // 0.20 names an MCP tool bare (`echo`, its display name `echo (rec MCP Server)`); 0.61 `mcp_rec_echo`. Before:
  // 0.20's tools counted under their bare names in the statistics, and a running one shown as no known tool.
  it.each([
    ['bundled', join(home020, mcp020)],
    ...(existsSync(corpus020) ? [['corpus', join(corpus020, mcp020)]] : []),
  ])('%s 0.20: an MCP tool is named as 0.61 names it, its kind known before its result', async (_, path) => {
    const [session] = await sessionsOf(path);
    expect(session?.calls.map((c) => [c.name, c.canonicalName, c.toolKind])).toEqual(
      ['echo', 'image', 'fail', 'throws'].map((t) => [`mcp_rec_${t}`, `mcp_rec_${t}`, 'mcp']),
    );
  });

  it.each([
    ['bundled 0.61', join(home061, 'tmp/mcp'), 'mcp_rec_image'],
    ['bundled 0.20', join(home020, mcp020), 'mcp_rec_image'],
    ...(existsSync(corpus061) ? [['corpus 0.61', join(corpus061, 'tmp/mcp'), 'mcp_rec_image']] : []),
    ...(existsSync(corpus020) ? [['corpus 0.20', join(corpus020, mcp020), 'mcp_rec_image']] : []),
  ])(
    '%s: an MCP result with an image is the result of its call (typed mcp, the image kept), never a prompt',
    async (_, path, name) => {
      const [session] = await sessionsOf(path);
      // The client's echo of the response (0.61: functionResponse and inlineData parts; 0.20: "[Function Response:
      // image]…<image/png>") is hidden, not a second prompt.
      expect(
        session?.events.filter((e) => e.kind === 'prompt').map((e) => (e.kind === 'prompt' ? e.text : '')),
      ).toEqual(['[[rec:mcp]] Use the rec MCP server tools: echo, image, fail and throws.']);
      expect(session?.counts.prompts).toBe(1);
      const call = session?.calls.find((c) => c.name === name);
      const typed = call?.result?.typed;
      expect([call?.status, typed?.kind === 'mcp' ? typed.data : typed]).toEqual([
        'ok',
        {
          server: 'rec',
          tool: 'image',
          text: expect.stringContaining('Here is an 8x8 image.'),
          blocks: [
            { type: 'text', text: expect.stringContaining('Here is an 8x8 image.') },
            { type: 'image', mediaType: 'image/png' },
          ],
        },
      ]);
      expect(call?.result?.images.map((i) => [i.mediaType, i.data.slice(0, 12)])).toEqual([
        ['image/png', 'iVBORw0KGgoA'],
      ]);
    },
  );
  if (!existsSync(corpus061) || !existsSync(corpus020)) {
    it.skip('corpus MCP image cases skipped: ../shared/corpus-agents/gemini is not present', () => {});
  }

  it.each([
    ['bundled 0.61', join(home061, 'tmp/edit')],
    ['bundled 0.20', join(home020, edit020)],
    ...(existsSync(corpus061) ? [['corpus 0.61', join(corpus061, 'tmp/edit')]] : []),
    ...(existsSync(corpus020) ? [['corpus 0.20', join(corpus020, edit020)]] : []),
  ])('%s: a replace that creates its file (empty old_string) says it created it', async (_, path) => {
    const [session] = await sessionsOf(path);
    const replaces = session?.calls
      .filter((c) => c.name === 'replace' && c.status === 'ok')
      .map((c) => {
        const typed = c.result?.typed;
        const data = typed?.kind === 'edit' ? typed.data : undefined;
        const envelope = toEnvelope(c);
        return [
          data?.operation,
          // The lines a creation added (0.20 records no diff for an update).
          data?.operation === 'create' ? data.linesAdded : '-',
          summarizeCall(c, '/home/user/proj/edit'),
          envelope.success ? envelope.data.output : envelope.error,
        ];
      });
    expect(replaces).toEqual([
      ['update', '-', 'replace notes.txt +1 −1', 'Edited /home/user/proj/edit/notes.txt'],
      ['create', 1, 'replace new_module.py (created, 1 line)', 'Created /home/user/proj/edit/new_module.py'],
    ]);
  });

  it('0.20 documents: calls of several turns folded into one message, failures by status', async () => {
    const sessions = await sessionsOf(home020);
    expect(sessions).toHaveLength(11);
    const calls = sessions.flatMap((s) => s.calls);
    expect(calls).toHaveLength(44); // the manifest: 6+7+6+4+1+5+2+2+6+2+3 calls in the 11 sessions
    expect(
      calls
        .filter((c) => c.status === 'error')
        .map((c) => `${c.name}:${c.result?.error?.category}`)
        .sort(),
    ).toEqual([
      'list_directory:permission-denied',
      'no_such_tool:unknown-tool',
      'read_file:file-not-found',
      'read_file:file-not-found',
      'read_file:validation',
      'read_file:validation',
      'replace:string-not-found',
      'run_shell_command:exit-code',
      'run_shell_command:exit-code',
    ]);
    expect(sessions.every((s) => s.agent === 'gemini' && s.issues.length === 0)).toBe(true);
    // 0.20 writes the subagent's instructions as a user message: kept, but not counted as a prompt.
    const subagent = sessions.find((s) => s.calls.some((c) => c.name === 'codebase_investigator'));
    expect(subagent?.counts.prompts).toBe(1);
    expect(
      subagent?.events.filter((e) => e.kind === 'hidden').map((e) => (e.kind === 'hidden' ? e.reason : '')),
    ).toEqual(['meta']);
  });
});
