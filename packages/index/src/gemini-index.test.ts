import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shortRefs } from '@agentdash/core/present';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';
import type { SearchKind } from './types.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/gemini');
const homes = [join(fixtures, '0.61.0/.gemini'), join(fixtures, '0.20.2/.gemini')];

interface Tokens {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
}

/** Each session file's model messages with tokens, read with plain JSON.parse (the last line of each id in JSONL). */
function recordedResponses(path: string): Tokens[] {
  const text = readFileSync(path, 'utf8');
  const messages: Record<string, unknown>[] = [];
  if (path.endsWith('.json'))
    messages.push(...((JSON.parse(text) as { messages: Record<string, unknown>[] }).messages ?? []));
  else {
    const byId = new Map<unknown, Record<string, unknown>>();
    for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (typeof value.type === 'string') byId.set(value.id, value);
    }
    messages.push(...byId.values());
  }
  return messages.filter((m) => m.type === 'gemini' && m.tokens).map((m) => m.tokens as Tokens);
}

function sessionFiles(home: string): string[] {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\/chats(\/[^/]+)?$/.test(e.parentPath) && /\.jsonl?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

let dir: string;
let index: AgentIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-gemini-index-'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Gemini sessions in the index', () => {
  it('every model response is counted once with its tokens (input apart from cached, thoughts in output)', async () => {
    await index.refresh(homes);
    const sessions = index.listSessions({ agent: 'gemini' });
    // 0.61: 9 projects, one holding a resumed session and the stub the client left (not a session); 0.20: 11
    // documents.
    expect(sessions).toHaveLength(20);
    const recorded = homes.flatMap(sessionFiles).flatMap(recordedResponses);
    const sum = (f: (t: Tokens) => number) => recorded.reduce((n, t) => n + f(t), 0);
    const total = (f: (s: (typeof sessions)[number]) => number) => sessions.reduce((n, s) => n + f(s), 0);
    expect({
      responses: total((s) => s.usage.responses),
      inputTokens: total((s) => s.usage.inputTokens),
      cacheReadInputTokens: total((s) => s.usage.cacheReadInputTokens),
      outputTokens: total((s) => s.usage.outputTokens),
      reasoningOutputTokens: total((s) => s.usage.reasoningOutputTokens),
      // The same over the stored responses (what usage reports and the API aggregate).
      responseReasoning: index
        .usageResponses({ agent: 'gemini' })
        .reduce((n, r) => n + r.tokens.reasoningOutputTokens, 0),
    }).toEqual({
      // and the 0.20 documents' 23 turns written into the message before them without their tokens, each a response
      // (core's folded-turns.test.ts counts them against the responses served)
      responses: recorded.length + 23,
      inputTokens: sum((t) => t.input - t.cached),
      cacheReadInputTokens: sum((t) => t.cached),
      outputTokens: sum((t) => t.output + t.thoughts),
      reasoningOutputTokens: sum((t) => t.thoughts),
      responseReasoning: sum((t) => t.thoughts),
    });
    // Messages: the prompts plus each response once, though a response line also holds its calls and results.
    expect(total((s) => s.messages - s.prompts)).toBeGreaterThanOrEqual(recorded.length);
    // Their cost is a lower bound: the sessions that hold such turns say so, and only those.
    const lowerBound = sessions.filter((s) => (s.inputUnrecordedModels ?? []).length > 0).length;
    expect(lowerBound).toBe(7);
    expect(sessions.every((s) => s.agent === 'gemini')).toBe(true);
  });

  it('a 0.20 document written compact (no line breaks) is read as the indented one', async () => {
    const compact = join(dir, 'compact', '.gemini');
    cpSync(homes[1] ?? '', compact, { recursive: true });
    for (const file of sessionFiles(compact)) {
      writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    }
    await index.refresh([homes[1] ?? '', compact]);
    const facts = (under: string) =>
      index
        .listSessions({ agent: 'gemini' })
        .filter((s) => s.projectDir.startsWith(`${under}/`))
        .map((s) => [s.id, s.messages, s.toolCalls, s.usage.responses, s.usage.inputTokens, s.usage.outputTokens])
        .sort();
    const indented = facts(homes[1] ?? '');
    expect(indented.length).toBeGreaterThan(5);
    // Before: every message of a compact document was on line 1, the index kept one record per line: 0 messages,
    // 0 responses, no tokens.
    expect(facts(compact)).toEqual(indented);
  });

  it('a resume stub is no session in lists or counts, but its file stays indexed with its issue and opens', async () => {
    const report = await index.refresh([join(homes[0] ?? '', 'tmp/multi')]);
    const stub = join(homes[0] ?? '', 'tmp/multi/chats/session-2026-11-23T00-28-85ed09f1.jsonl');
    expect(index.listSessions().map((s) => [s.id, s.messages])).toEqual([['85ed09f1-51f6-47b8-99d1-7e4d7e9935b6', 8]]);
    expect(index.sessionTotals({}).total).toBe(1);
    expect({ files: report.files, sessions: report.sessions, issues: report.issues }).toEqual({
      files: 2,
      sessions: 1,
      issues: 1,
    });
    const [issue] = index.issues();
    expect(issue).toMatchObject({ code: 'resume_stub', file: stub, line: 0 });
    const session = await index.loadSession(issue?.sessionRef ?? '');
    expect(session.counts.prompts).toBe(0);
  });

  it('the short reference a list prints names the resumed session, not also its stub, which its own ref opens', async () => {
    await index.refresh([homes[0] ?? '']);
    const listed = index.listSessions();
    const short = shortRefs(listed.map((s) => s.ref));
    const stub = index.issues().find((i) => i.code === 'resume_stub')?.sessionRef ?? '';
    expect({
      printed: listed.map((s) => index.getSession(short.get(s.ref) ?? '')?.key === s.key),
      resumed: index.getSession('85ed09f1')?.ref,
      stub: index.getSession(stub)?.ref,
    }).toEqual({
      printed: listed.map(() => true),
      resumed: '85ed09f1-51f6-47b8-99d1-7e4d7e9935b6',
      stub: '85ed09f1-51f6-47b8-99d1-7e4d7e9935b6@session-2026-11-23T00-28-85ed09f1',
    });
  });

  it('opens a session with its calls typed, and keeps the subagent with its parent', async () => {
    await index.refresh(homes);
    const parent = index.listSessions({ agent: 'gemini' }).find((s) => s.id === 'd79a1ee2-eb13-4740-9475-85886294834c');
    expect(parent?.toolCalls).toBe(3);
    const session = await index.loadSession(parent?.ref ?? '');
    expect(session.calls.map((c) => [c.name, c.status, c.result?.typed.kind])).toEqual([
      ['invoke_agent', 'ok', 'agent'],
      ['list_directory', 'ok', 'ls'],
      ['complete_task', 'ok', 'task-complete'],
    ]);
    expect(session.subagents.map((s) => s.linkedBy)).toEqual(['agent-id']);
  });

  it('a hit’s snippet is its own document’s text: a tool’s output or input, not another record’s of its message', async () => {
    await index.refresh(homes);
    // A model message is one line (0.61) or one message of the document (0.20) holding the response's text, each
    // call and each result: the snippet is cut from the document the hit is.
    const hits = async (query: string, kind: SearchKind) =>
      (await index.search(query, { kind })).map((h) => `${h.sessionId.slice(0, 8)} ${h.kind} ${h.snippet}`).sort();
    expect(await hits('"Successfully modified"', 'tool-output')).toEqual([
      '3216cf42 tool-output \u0001Successfully modified\u0002 file: /home/user/proj/edit/notes.txt (1 replacements).',
      '504fcd6d tool-output \u0001Successfully modified\u0002 file: /home/user/proj/multi/notes.md (1 replacements).',
      '85ed09f1 tool-output \u0001Successfully modified\u0002 file: /home/user/proj/multi/notes.md (1 replacements). Here is the updated code…',
      'ea778fdf tool-output \u0001Successfully modified\u0002 file: /home/user/proj/edit/notes.txt (1 replacements). Here is the updated code…',
    ]);
    const edit =
      '/home/user/proj/multi/notes.md\nAppend a \u0001second bullet\u0002.\n- first note\n\n- first note\n- second note\n';
    expect(await hits('"second bullet"', 'tool-input')).toEqual([
      `504fcd6d tool-input ${edit}`,
      `85ed09f1 tool-input ${edit}`,
    ]);
    // Every hit of a word in all kinds of documents has it marked in its snippet.
    const unmarked = (await index.search('notes')).filter(
      (h) => !h.snippet.toLowerCase().includes('\u0001notes\u0002'),
    );
    expect(unmarked.map((h) => `${h.sessionId.slice(0, 8)} ${h.kind} ${h.snippet}`)).toEqual([]);
  });
});
