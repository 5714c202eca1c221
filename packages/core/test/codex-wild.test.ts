import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexAdapter } from '../src/adapters/codex/adapter.js';
import { groupSessions } from '../src/index.js';
import { loadSession } from '../src/session/load-session.js';
import { repoRoot } from './helpers.js';

/** Real Codex rollouts other people's clients wrote (0.34 → 0.145 and the legacy format), from public repositories. */
const wild = resolve(repoRoot, '../shared/wild-agents/codex');

function rolloutsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /^rollout-.*\.jsonl$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const CALL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'tool_search_call',
  'web_search_call',
  'image_generation_call',
]);

/** Ids of the call items in the files (items without an id are left out). */
function distinctCallIds(paths: readonly string[]): number {
  const ids = new Set<string>();
  for (const path of paths) {
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return;
        }
        const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
        const item = (
          typeof record.payload === 'object' && record.payload !== null ? record.payload : record
        ) as Record<string, unknown>;
        const type = typeof item.type === 'string' ? item.type : '';
        // a call an `exec` script made is written only as its end event, with an `exec-…` id
        const scripted = type === 'mcp_tool_call_end' && String(item.call_id).startsWith('exec-');
        if (!CALL_ITEMS.has(type) && !scripted) return;
        const id = item.call_id ?? item.id;
        if (typeof id === 'string' && id !== '') ids.add(id);
      });
  }
  return ids.size;
}

describe.skipIf(!existsSync(wild))('wild Codex rollouts lose nothing', () => {
  test('every rollout is listed, and every call is paired or reported', async () => {
    const sources = readdirSync(wild).sort();
    let files = 0;
    const seen = new Map<string, Set<string>>();
    for (const source of sources) {
      const root = join(wild, source);
      const { files: found } = await codexAdapter.discover(root);
      expect(found.map((f) => f.path).sort()).toEqual(rolloutsUnder(root));
      files += found.length;
      const ids = new Set<string>();
      seen.set(source, ids);
      for (const group of groupSessions(found)) {
        const session = await loadSession(group);
        // Each file of the group is in the session.
        expect(session.files.map((f) => f.path).sort()).toEqual(
          [group.main, ...group.subagents].flatMap((f) => (f ? [f.path] : [])).sort(),
        );
        for (const call of session.calls) {
          // An item without an id (a web search) cannot be matched to its copies by id: not counted by id here.
          if (!/@\d+$/.test(call.id)) ids.add(call.id);
          // A call without a result is `unanswered` (a file copied while its session ran, or cut off).
          expect(call.result !== undefined || call.status === 'unanswered').toBe(true);
        }
        // A result without its call is an issue, never dropped silently.
        const orphanIssues = session.issues.filter((i) => i.code === 'orphan_result').length;
        expect(orphanIssues).toBe(session.orphanResults.length);
        // A call only in a copied history (a spawned or resumed file whose source file was cut short) is kept as a
        // fork-copy marker with its id.
        for (const event of session.events.concat(session.subagents.flatMap((s) => s.events))) {
          if (event.kind !== 'side' || event.record.kind !== 'meta' || event.record.type !== 'fork-copy') continue;
          const callId = event.record.data.callId;
          const payloadType = event.record.data.payloadType;
          if (typeof callId === 'string' && typeof payloadType === 'string' && CALL_ITEMS.has(payloadType))
            ids.add(callId);
        }
      }
    }
    // Every call item of the files, counted by id over all files (a spawned agent's copy of its parent's history
    // repeats the parent's ids), is one call of a session.
    // (per source: snapshots of one session in several sources are several sessions here)
    for (const source of sources) {
      expect({ source, calls: seen.get(source)?.size }).toEqual({
        source,
        calls: distinctCallIds(rolloutsUnder(join(wild, source))),
      });
    }
    expect(files).toBeGreaterThan(0);
  });

  test('every apply_patch a shell ran from a here-document is a patch of its files, not a command', async () => {
    // The files' shell calls whose script is `apply_patch <<'PATCH' …` (219 lines in ../shared: diffs, not commands).
    const written = new Set<string>();
    for (const path of rolloutsUnder(wild)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!/"arguments":"\{\\"command\\":\[\\"bash\\",\\"-lc\\",\\"apply_patch <</.test(line)) continue;
        written.add(JSON.parse(line).payload.call_id);
      }
    }
    const typed = new Set<string>();
    const answered = new Set<string>();
    for (const source of readdirSync(wild).sort()) {
      const { files } = await codexAdapter.discover(join(wild, source));
      for (const group of groupSessions(files)) {
        for (const call of (await loadSession(group)).calls) {
          // (a patch that did not apply is the error its output says: "Failed to find expected lines")
          if (!written.has(call.id) || call.status !== 'ok') continue;
          answered.add(call.id);
          const result = call.result?.typed;
          if (result?.kind === 'patch' && result.data.files.length > 0) typed.add(call.id);
        }
      }
    }
    expect(answered.size).toBeGreaterThan(0);
    expect([...answered].filter((id) => !typed.has(id))).toEqual([]);
  });
});
