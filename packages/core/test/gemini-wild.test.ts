import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverGemini } from '../src/adapters/gemini/discover.js';
import { streamGeminiRecords } from '../src/adapters/gemini/stream-records.js';
import { repoRoot } from './helpers.js';

/** Gemini CLI session files other people's clients wrote (../shared/wild-agents/SOURCES.md). */
const wild = join(repoRoot, '../shared/wild-agents/gemini');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

// Says "skipped" only when it is.
const suiteTitle = !existsSync(wild)
  ? 'Gemini wild files lose nothing (skipped: ../shared/wild-agents/gemini is not present)'
  : 'Gemini wild files lose nothing';
describe.skipIf(!existsSync(wild))(suiteTitle, () => {
  it('lists every session file; the only other file is a prompt log (logs.json), not a session', async () => {
    const all = filesUnder(wild).map((p) => relative(wild, p));
    const sessions = all.filter((p) => /\/chats\/[^/]+\.jsonl?$/.test(p));
    expect(all.filter((p) => !sessions.includes(p))).toEqual([
      'dependency-review-action-1/tmp/5e4cff8769ea24781277ff1e7feb32032842feb408441bc8ff2fedac6b842a07/logs.json',
    ]);
    const found: string[] = [];
    for (const source of readdirSync(wild)) {
      const { files, issues } = await discoverGemini(join(wild, source));
      expect(issues).toEqual([]);
      found.push(...files.map((f) => relative(wild, f.path)));
    }
    expect(found.sort()).toEqual(sessions.sort());
    expect(sessions).toHaveLength(14);
  });

  it('reads every file without an issue, and every call is paired with its result', async () => {
    let calls = 0;
    for (const source of readdirSync(wild)) {
      const { files } = await discoverGemini(join(wild, source));
      for (const file of files) {
        const ids = new Set<string>();
        const results = new Set<string>();
        const issues: string[] = [];
        await streamGeminiRecords(file, (event) => {
          if (event.kind === 'issue') {
            issues.push(`${event.issue.code} ${event.issue.message}`);
            return;
          }
          const r = event.record;
          if (r.kind === 'assistant') for (const b of r.content) if (b.kind === 'tool-use') ids.add(b.id);
          if (r.kind === 'user' && typeof r.content !== 'string') {
            for (const b of r.content) if (b.kind === 'tool-result') results.add(b.toolUseId);
          }
        });
        // The hand-made fixture (agent-sessions-fixture-1) holds `type: "model"` messages, read as model turns.
        expect({ file: relative(wild, file.path), issues }).toEqual({ file: relative(wild, file.path), issues: [] });
        expect([...ids].filter((id) => !results.has(id))).toEqual([]);
        expect([...results].filter((id) => !ids.has(id))).toEqual([]);
        calls += ids.size;
      }
    }
    expect(calls).toBe(39);
  });
});
