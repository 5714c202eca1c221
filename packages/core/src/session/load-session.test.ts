import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusVersions, loadSampleSession, loadSessions, samplesHome } from '../../test/helpers.js';
import { discoverFiles, groupSessions } from '../io/discover.js';
import type { Session } from '../model/session.js';
import type { ToolCall } from '../model/tool-call.js';
import { loadSession } from './load-session.js';

const SUBAGENTS = '-home-user-proj-subagents';

function agentCalls(session: Session) {
  return session.calls.filter((c) => c.canonicalName === 'Agent');
}
function callNames(events: Session['events']): string[] {
  return events
    .flatMap((e) => (e.kind === 'assistant' ? e.items.filter((i): i is ToolCall => i.kind === 'tool-call') : []))
    .map((c) => c.name);
}

describe('loadSession: subagents in every layout', () => {
  it('2.1.330: links <session>/subagents/agent-*.jsonl by agentId and reads .meta.json', async () => {
    const session = await loadSampleSession(SUBAGENTS, '410c10d6-fdc3-4c91-bc4f-74b883942e01');
    const linked = session.subagents.filter((s) => s.linkedBy === 'agent-id');
    expect(linked.map((s) => [s.parentCallId, s.agentId])).toEqual([
      ['toolu_016ge2MuFvBbXu6F9Mfbslwx', 'a6f077947b965e76e'],
      ['toolu_01UU5jSdzCdIZ7XGduw5VOs8', 'ab803f6513f82f68e'],
      ['toolu_01rpLCoIUit5JD5GZxGnHt7m', 'aceae7f385bbb67a7'],
      ['toolu_01jWqnoOY008291DruBFFY48', 'afc6b8f262420045d'],
    ]);
    const first = session.subagents.find((s) => s.agentId === 'ab803f6513f82f68e');
    expect(first?.meta?.agentType).toBe('general-purpose');
    expect(callNames(first?.events ?? [])).toEqual(['Bash', 'Read']);
    // The failing Agent call (unknown agent type) starts no subagent.
    expect(agentCalls(session).map((c) => [c.status, c.subagentKey === undefined])).toEqual([
      ['ok', false],
      ['ok', false],
      ['ok', false],
      ['error', true],
      ['ok', false],
    ]);
    // Subagent calls are part of the session's calls, marked with their agent.
    expect(
      session.calls
        .filter((c) => c.agentId !== undefined)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['Bash', 'Bash', 'Bash', 'Read', 'Read']);
  });

  it('2.0.76: links agent-<id>.jsonl beside the session by agentId; the warm-up agents are not subagents', async () => {
    const session = await loadSampleSession(SUBAGENTS, '3d438771-f9d6-4a92-9daa-79a2c6f7cc27');
    expect(session.subagents.map((s) => [s.agentId, s.linkedBy, s.prompt?.slice(0, 24)])).toEqual([
      ['a351702', 'agent-id', 'Echo a word and report. '],
      ['a997c70', 'agent-id', 'Sleep briefly and report'],
      ['aa4a751', 'agent-id', 'Read a missing file and '],
      ['abc0ab0', 'agent-id', 'Run a command and read d'],
    ]);
    // adf0b3e and ae0b871, "Warmup" and an answer (warmups.test.ts).
    expect(session.counts.warmups).toBe(2);
  });

  it('1.0.128: splits in-file sidechains into runs and links them by prompt and time', async () => {
    const session = await loadSampleSession(SUBAGENTS, '8f0808b5-a7f3-4708-8e86-3eac81d4c7d1');
    expect(session.files).toHaveLength(1);
    const byCall = new Map(session.subagents.map((s) => [s.parentCallId, s]));
    const calls = agentCalls(session);
    expect(calls.map((c) => [c.status, byCall.get(c.id)?.linkedBy ?? null])).toEqual([
      ['ok', 'prompt-match'],
      ['ok', 'prompt-match'],
      ['ok', 'prompt-match'],
      ['error', null],
    ]);
    for (const call of calls.filter((c) => c.status === 'ok')) {
      const input = call.input as { prompt: string };
      expect(byCall.get(call.id)?.prompt).toBe(input.prompt);
    }
    // Sidechain records never leak into the main timeline.
    expect(session.events.some((e) => e.kind === 'prompt' && e.text.startsWith('Echo a word'))).toBe(false);
  });
});

describe('loadSession: assembly', () => {
  it('gives one assistant event per API response and nests each result in its call', async () => {
    const session = await loadSampleSession('-home-user-proj-files', '0097a0c6-9ed3-4b4b-8663-59e78bc0fccc');
    const assistant = session.events.filter((e) => e.kind === 'assistant');
    const ids = assistant.map((e) => e.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    const nested = assistant.flatMap((e) => e.items.filter((i): i is ToolCall => i.kind === 'tool-call'));
    expect(nested.length).toBe(session.calls.length);
    expect(nested.every((c) => c.result?.toolUseId === c.id)).toBe(true);
    // Tool-result-only user records are folded into their calls, not shown as prompts.
    expect(session.events.filter((e) => e.kind === 'prompt').map((e) => e.text)).toEqual([
      expect.stringContaining('[[rec:files]]'),
    ]);
    expect(session.projectPath).toBe('/home/user/proj/files');
    expect(session.versions).toEqual(['2.1.330']);
    expect(session.issues).toEqual([]);
  });

  it('pairs a result that comes before its call, reports a result without a call, and tells pending from unanswered', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-pair-'));
    try {
      const source = join(samplesHome, 'projects/-home-user-proj-shell/f0835e0b-b4c6-4910-817c-346fd7332302.jsonl');
      const lines = (await readFile(source, 'utf8')).split('\n').filter((l) => l.trim() !== '');
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const isResult = (r: Record<string, unknown>) => r.type === 'user' && r.toolUseResult !== undefined;
      const firstResult = records.findIndex(isResult);
      const reordered = [...lines];
      // Move the first result line before everything else (a result can precede its call: FORMAT.md §11).
      const [moved] = reordered.splice(firstResult, 1);
      reordered.unshift(moved ?? '');
      // A result whose call is nowhere in the session.
      reordered.push(
        JSON.stringify({
          type: 'user',
          uuid: 'orphan-1',
          parentUuid: null,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_nowhere', content: 'x' }] },
        }),
      );
      // A call at the very end with no result yet.
      reordered.push(
        JSON.stringify({
          type: 'assistant',
          uuid: 'tail-1',
          parentUuid: null,
          message: {
            id: 'msg_tail',
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_tail', name: 'Bash', input: { command: 'sleep 100' } }],
          },
        }),
      );
      const file = join(dir, 'session.jsonl');
      await writeFile(file, `${reordered.join('\n')}\n`);
      const group = groupSessions((await discoverFiles([file])).files)[0];
      if (!group) throw new Error('no session');
      const live = await loadSession(group, { live: true });
      const done = await loadSession(group, { live: false });
      const sourceSession = await loadSession(groupSessions((await discoverFiles([source])).files)[0] ?? group);
      expect(live.calls.filter((c) => c.result).length).toBe(sourceSession.calls.length);
      expect(live.calls.find((c) => c.id === 'toolu_tail')?.status).toBe('pending');
      expect(done.calls.find((c) => c.id === 'toolu_tail')?.status).toBe('unanswered');
      expect(live.orphanResults.map((r) => r.toolUseId)).toEqual(['toolu_nowhere']);
      expect(live.issues.map((i) => [i.code, i.line])).toEqual([['orphan_result', reordered.length - 1]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('dedupes records copied by resume or fork across files by uuid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentdash-dedupe-'));
    try {
      const source = join(samplesHome, 'projects/-home-user-proj-shell/f0835e0b-b4c6-4910-817c-346fd7332302.jsonl');
      const text = await readFile(source, 'utf8');
      await cp(source, join(dir, 's.jsonl'));
      await writeFile(join(dir, 's.jsonl'), text + text);
      const group = groupSessions((await discoverFiles([join(dir, 's.jsonl')])).files)[0];
      if (!group) throw new Error('no session');
      const doubled = await loadSession(group);
      const single = await loadSession(groupSessions((await discoverFiles([source])).files)[0] ?? group);
      expect(doubled.calls.length).toBe(single.calls.length);
      expect(doubled.counts.duplicateRecords).toBe(single.counts.records - single.counts.duplicateRecords);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('loadSession: titles', () => {
  it('titles a session that starts with a slash command by the command line', async () => {
    const session = await loadSampleSession('-home-user-proj-interaction', 'cc9e88ac-d501-433c-9eca-c449aa66f935');
    expect([session.title, session.titleSource]).toEqual(['/hello from-the-prompt', 'first-prompt']);
    expect(session.events.filter((e) => e.kind === 'hidden').map((e) => e.kind === 'hidden' && e.reason)).toEqual([
      'command',
      'meta',
    ]);
  });
});

/** The MCP scenario of each corpus version (real clients, a local MCP server), when the corpus is present. */
const mcpCorpus = corpusVersions
  .map((version): [string, string] => [version, join(corpusDir, version, 'claude-home/projects/-home-user-proj-mcp')])
  .filter(([, path]) => existsSync(path));

describe('loadSession: failed MCP calls', () => {
  if (mcpCorpus.length === 0) it.skip(`corpus versions skipped: the corpus is not at ${corpusDir}`, () => {});
  it.each<[string, string]>([['bundled', join(samplesHome, 'projects/-home-user-proj-mcp')], ...mcpCorpus])(
    '%s: keep their server and tool; the tool failing is `other`, not an API error',
    async (_, path) => {
      const failed = (await loadSessions(path))
        .flatMap((s) => s.calls)
        .filter((c) => c.toolKind === 'mcp' && c.status === 'error')
        .map((c) => {
          const data = c.result?.typed.kind === 'mcp' ? c.result.typed.data : undefined;
          return `${c.name} ${data?.server}/${data?.tool} ${c.result?.error?.category}`;
        });
      expect(new Set(failed)).toEqual(
        new Set([
          // The tool answered `isError` with its own message, or its handler threw ("handler exploded").
          'mcp__rec__fail rec/fail other',
          'mcp__rec__throws rec/throws other',
          // The server refused the arguments (MCP error -32602: Input validation error).
          'mcp__rec__echo rec/echo validation',
        ]),
      );
    },
  );
});
