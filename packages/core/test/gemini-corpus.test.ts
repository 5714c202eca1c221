import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverGemini } from '../src/adapters/gemini/discover.js';
import { streamGeminiRecords } from '../src/adapters/gemini/stream-records.js';
import { resultText } from '../src/model/content.js';
import type { TranscriptRecord } from '../src/model/record.js';
import { repoRoot } from './helpers.js';

/** Gemini CLI transcripts written by the real clients against a scripted API (see its README). */
const corpus = join(repoRoot, '../shared/corpus-agents/gemini');
const versions = ['0.61.0', '0.20.2'] as const;

interface ManifestSession {
  readonly file: string;
  readonly scenario: string;
  readonly messagesWithTokens: number;
  readonly toolCalls: Record<string, { calls: number; statuses: Record<string, number> }>;
  readonly failedToolCalls: readonly { id: string; name: string; status: string }[];
}
interface Manifest {
  readonly sessions: readonly ManifestSession[];
}
interface Served {
  readonly scenario: string;
  readonly kind: string;
  /** null for a response that was an API error (500, 429, 503), which the client retried. */
  readonly usage: null | {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    cachedContentTokenCount?: number;
    thoughtsTokenCount?: number;
    toolUsePromptTokenCount?: number;
  };
}

async function recordsOf(home: string, path: string): Promise<TranscriptRecord[]> {
  const { files } = await discoverGemini(path);
  const file = files[0];
  if (file === undefined) throw new Error(`not discovered: ${relative(home, path)}`);
  const records: TranscriptRecord[] = [];
  await streamGeminiRecords(file, (event) => {
    if (event.kind === 'record') records.push(event.record);
  });
  return records;
}

/** One key per response's tokens, as the shared fields add up to Gemini's: input+cached, cached, output+thoughts, thoughts. */
function keyOfRecord(usage: NonNullable<Extract<TranscriptRecord, { kind: 'assistant' }>['usage']>): string {
  const { inputTokens, cacheReadInputTokens, outputTokens, reasoningOutputTokens } = usage;
  return `${inputTokens + cacheReadInputTokens}/${cacheReadInputTokens}/${outputTokens}/${reasoningOutputTokens}`;
}
function keyOfServed(served: Served): string {
  const u = served.usage ?? {};
  const input = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
  const thoughts = u.thoughtsTokenCount ?? 0;
  return `${input}/${u.cachedContentTokenCount ?? 0}/${(u.candidatesTokenCount ?? 0) + thoughts}/${thoughts}`;
}

// Says "skipped" only when it is.
const suiteTitle = !existsSync(corpus)
  ? 'Gemini corpus (skipped: ../shared/corpus-agents/gemini is not present)'
  : 'Gemini corpus';
describe.skipIf(!existsSync(corpus))(suiteTitle, () => {
  for (const version of versions) {
    const home = join(corpus, version, 'gemini-home');
    const manifest = (): Manifest =>
      JSON.parse(readFileSync(join(corpus, version, 'manifest.json'), 'utf8')) as Manifest;

    it(`${version}: discovery lists exactly the manifest's session files`, async () => {
      const { files, issues } = await discoverGemini(join(home, '.gemini'));
      expect(issues).toEqual([]);
      expect(files.map((f) => relative(home, f.path)).sort()).toEqual(
        manifest()
          .sessions.map((s) => s.file)
          .sort(),
      );
      expect(new Set(files.map((f) => `${f.projectDir}\0${f.sessionId}\0${f.agentId}`)).size).toBe(files.length);
    });

    it(`${version}: calls per tool, statuses and failures equal the manifest, every call paired`, async () => {
      for (const session of manifest().sessions) {
        const records = await recordsOf(home, join(home, session.file));
        const calls = new Map<string, string>();
        const results = new Map<string, boolean>();
        const exits: string[] = [];
        for (const r of records) {
          if (r.kind === 'assistant') for (const b of r.content) if (b.kind === 'tool-use') calls.set(b.id, b.name);
          if (r.kind === 'user' && typeof r.content !== 'string') {
            for (const b of r.content) if (b.kind === 'tool-result') results.set(b.toolUseId, b.isError);
            for (const b of r.content) {
              const exit = /\nExit Code: (\d+)/.exec(b.kind === 'tool-result' ? resultText(b.content) : '');
              if (b.kind === 'tool-result' && exit && exit[1] !== '0') exits.push(b.toolUseId);
            }
          }
        }
        const perTool: Record<string, number> = {};
        for (const name of calls.values()) perTool[name] = (perTool[name] ?? 0) + 1;
        // 0.20 writes an MCP tool bare (`echo`); AgentDash names it as 0.61 does, `mcp_<server>_<tool>` (the corpus's
        // one MCP server is `rec`, its scenario `mcp`)
        const named = (name: string) => (version === '0.20.2' && session.scenario === 'mcp' ? `mcp_rec_${name}` : name);
        const expected = Object.fromEntries(
          Object.entries(session.toolCalls).map(([name, t]) => [named(name), t.calls]),
        );
        expect({ file: session.file, perTool }).toEqual({ file: session.file, perTool: expected });
        expect([...calls.keys()].filter((id) => !results.has(id))).toEqual([]);
        expect([...results.keys()].filter((id) => !calls.has(id))).toEqual([]);
        const failed = [...results]
          .filter(([, isError]) => isError)
          .map(([id]) => id)
          .sort();
        // The client's failures, and (as Claude Code's Bash) shell commands that exited non-zero, which it calls a
        // success with `Exit Code: N` in the output.
        expect({ file: session.file, failed }).toEqual({
          file: session.file,
          failed: [...session.failedToolCalls.map((f) => f.id), ...exits].sort(),
        });
      }
    });

    it(`${version}: every recorded response's tokens equal one the API served (input apart from cached, thoughts in output)`, async () => {
      const served = readFileSync(join(corpus, version, 'truth.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Served)
        .filter((s) => s.kind === 'script' && s.usage !== null);
      let recorded = 0;
      let expectedRecorded = 0;
      const responses: Record<string, number> = {};
      for (const session of manifest().sessions) {
        expectedRecorded += session.messagesWithTokens;
        const records = await recordsOf(home, join(home, session.file));
        const perResponse = new Map<string, string>();
        const folded = new Map<string, number>();
        for (const r of records) {
          if (r.kind !== 'assistant' || !r.usage) continue;
          perResponse.set(r.messageId ?? r.uuid, keyOfRecord(r.usage));
          folded.set(r.messageId ?? r.uuid, r.usage.turnsUnrecorded ?? 0);
        }
        const pool = served.filter((s) => s.scenario === session.scenario).map(keyOfServed);
        for (const key of perResponse.values()) {
          const at = pool.indexOf(key);
          expect({ file: session.file, key, matched: at >= 0 }).toEqual({ file: session.file, key, matched: true });
          pool.splice(at, 1);
          recorded += 1;
        }
        const unrecorded = [...folded.values()].reduce((a, b) => a + b, 0);
        responses[session.scenario] = (responses[session.scenario] ?? 0) + perResponse.size + unrecorded;
      }
      // 0.61.0 records every response; 0.20.2 drops the tokens of turns without text (README): what it recorded.
      expect(recorded).toBe(expectedRecorded);
      if (version === '0.61.0') expect(recorded).toBe(served.length);
      // Each response is one, its tokens written or not (0.20.2's folded turns, unknown: a lower bound); but a 0.20.2
      // subagent's, which its file does not hold.
      const servedPer: Record<string, number> = {};
      for (const s of served) servedPer[s.scenario] = (servedPer[s.scenario] ?? 0) + 1;
      if (version === '0.20.2') servedPer.subagent = (servedPer.subagent ?? 0) - 2;
      expect(responses).toEqual(servedPer);
    });
  }
});
