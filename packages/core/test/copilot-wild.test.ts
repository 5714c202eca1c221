import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../src/adapters/copilot/adapter.js';
import { copilotWild } from '../src/adapters/copilot/test-helpers.js';
import { defaultPriceTable, findPrice, groupSessions, loadSession } from '../src/index.js';
import type { ParseIssue } from '../src/model/issue.js';
import type { Usage } from '../src/model/record.js';
import { repoRoot } from './helpers.js';

/** Copilot CLI event logs other people's clients wrote (../shared/wild-agents/SOURCES.md), and the bundled two. */
const shared = join(repoRoot, '../shared/wild-agents/other/copilot-cli/entire-agentv-1');
const sources = [
  // Two one-prompt sessions of an eval harness: no tool calls.
  {
    name: 'bundled Copilot wild files',
    dir: copilotWild,
    present: true,
    files: 2,
    calls: { statuses: {}, kinds: {} },
    // 1.0.64-1 and 1.0.68: one message each, with its output tokens only.
    usage: { messages: 2, outputTokens: 45 },
    models: ['gpt-5.3-codex-spark', 'gpt-5.4-mini'],
  },
  {
    name: 'Copilot wild files (../shared)',
    dir: shared,
    present: existsSync(shared),
    files: 3,
    // Calls by status, and by tool and the kind of their result (`none`: the last call, cut off by the checkpoint).
    calls: {
      statuses: { ok: 65, error: 2, unanswered: 1 },
      kinds: {
        'bash bash': 59,
        'bash error': 1,
        'bash none': 1,
        'edit edit': 1,
        'read_bash error': 1,
        'stop_bash task-stop': 4,
        'view read': 1,
      },
    },
    // The bundled two and a 1.0.64 session of 53 messages, 19,004 output tokens.
    usage: { messages: 55, outputTokens: 19_049 },
    // Copilot writes `claude-sonnet-4.6`: the session names Anthropic's id, as a Claude Code session does.
    models: ['claude-sonnet-4-6', 'gpt-5.3-codex-spark', 'gpt-5.4-mini'],
  },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Per line type, as the file has them: what the adapter must account for. */
function lineTypes(path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const type = (JSON.parse(line) as { type: string }).type;
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

describe.each(sources)('$name', ({ dir, present, files: expectedFiles, calls: expectedCalls, usage, models }) => {
  // Says "skipped" only when it is.
  const title = present ? 'lose nothing' : `lose nothing (skipped: ${relative(repoRoot, dir)} is not present)`;
  describe.skipIf(!present)(title, () => {
    it('lists every events file, and reads each without an issue or an unknown record', async () => {
      const { files, issues } = await copilotAdapter.discover(dir);
      expect(issues).toEqual([]);
      expect(files.map((f) => f.path).sort()).toEqual(filesUnder(dir).sort());
      expect(files).toHaveLength(expectedFiles);
      for (const file of files) {
        const found: ParseIssue[] = [];
        let records = 0;
        await copilotAdapter.streamRecords(
          file,
          (event) => {
            if (event.kind === 'issue') found.push(event.issue);
            else if (event.byteLength > 0) records += 1;
          },
          {},
        );
        const lines = Object.values(lineTypes(file.path)).reduce((a, b) => a + b, 0);
        expect({ file: relative(dir, file.path), found, records }).toEqual({
          file: relative(dir, file.path),
          found: [],
          records: lines,
        });
      }
    });

    it('keeps each message’s output tokens as written, and says its input was not recorded (unknown, not 0)', async () => {
      const { files } = await copilotAdapter.discover(dir);
      const usages: Usage[] = [];
      for (const file of files) {
        await copilotAdapter.streamRecords(
          file,
          (event) => {
            if (event.kind === 'record' && event.record.kind === 'assistant' && event.record.usage) {
              usages.push(event.record.usage);
            }
          },
          {},
        );
      }
      expect({
        messages: usages.length,
        outputTokens: usages.reduce((n, u) => n + u.outputTokens, 0),
        inputTokens: usages.reduce((n, u) => n + u.inputTokens + u.cacheReadInputTokens, 0),
        inputUnrecorded: usages.filter((u) => u.inputUnrecorded === true).length,
      }).toEqual({ ...usage, inputTokens: 0, inputUnrecorded: usage.messages });
    });

    it('pairs every call that finished; the one cut off by the checkpoint is unanswered', async () => {
      const { files } = await copilotAdapter.discover(dir);
      let starts = 0;
      let completes = 0;
      const statuses: Record<string, number> = {};
      const kinds: Record<string, number> = {};
      const seen = new Set<string>();
      for (const group of groupSessions(files)) {
        const session = await loadSession(group);
        for (const file of session.files) {
          const types = lineTypes(file.path);
          starts += types['tool.execution_start'] ?? 0;
          completes += types['tool.execution_complete'] ?? 0;
        }
        for (const call of session.calls) {
          statuses[call.status] = (statuses[call.status] ?? 0) + 1;
          const kind = call.result?.typed.kind ?? 'none';
          kinds[`${call.name} ${kind}`] = (kinds[`${call.name} ${kind}`] ?? 0) + 1;
        }
        expect(session.agent).toBe('copilot');
        for (const model of session.models) seen.add(model);
      }
      expect([...seen].sort()).toEqual(models);
      const calls = Object.values(statuses).reduce((a, b) => a + b, 0);
      expect(calls).toBe(starts);
      expect((statuses.ok ?? 0) + (statuses.error ?? 0)).toBe(completes);
      expect(statuses.unanswered ?? 0).toBe(starts - completes);
      expect({ statuses, kinds }).toEqual(expectedCalls);
    });
  });
});

describe('a Claude model Copilot names with a dot in its version', () => {
  it("is Anthropic's id in the session, its usage and its price (one model, one row beside Claude Code's)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-copilot-model-'));
    try {
      // A bundled real file whose responses name claude-sonnet-4.6, as the longer one in ../shared does.
      for (const file of readdirSync(copilotWild, { recursive: true, withFileTypes: true })) {
        if (!file.isFile()) continue;
        const from = join(file.parentPath, file.name);
        const to = join(dir, relative(copilotWild, from));
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, readFileSync(from, 'utf8').replaceAll('"gpt-5.4-mini"', '"claude-sonnet-4.6"'));
      }
      const { files } = await copilotAdapter.discover(dir);
      const sessions = await Promise.all(groupSessions(files).map((group) => loadSession(group)));
      const renamed = sessions.find((session) => session.models.some((m) => m.startsWith('claude')));
      expect(renamed?.models).toEqual(['claude-sonnet-4-6']);
      expect(Object.keys(renamed?.usageByModel ?? {})).toEqual(['claude-sonnet-4-6']);
      expect(findPrice(defaultPriceTable, 'claude-sonnet-4-6')).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
