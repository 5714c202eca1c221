import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { discoverFiles, groupSessions } from '../src/io/discover.js';
import { typedResultJsonSchemas } from '../src/model/json-schema.js';
import type { Session } from '../src/model/session.js';
import { toEnvelope } from '../src/results/envelope.js';
import { loadSession } from '../src/session/load-session.js';
import { corpusDir, corpusVersions, hasCorpus } from './helpers.js';

/** Every tool some corpus version offers (tools-offered.json), plus the MCP and Task* tools the scenarios call. */
const KNOWN_TOOLS = new Set([
  'Bash',
  'BashOutput',
  'TaskOutput',
  'KillShell',
  'KillBash',
  'TaskStop',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'LS',
  'TodoWrite',
  'Task',
  'Agent',
  'WebFetch',
  'WebSearch',
  'AskUserQuestion',
  'ExitPlanMode',
  'exit_plan_mode',
  'EnterPlanMode',
  'Skill',
  'SlashCommand',
  'LSP',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'ReadMcpResourceDirTool',
  'CronCreate',
  'CronDelete',
  'CronList',
  'TaskCreate',
  'TaskGet',
  'TaskUpdate',
  'TaskList',
  'EnterWorktree',
  'ExitWorktree',
  'Monitor',
  'Workflow',
  'SendMessage',
  'ToolSearch',
  'ListAgents',
  'ReportFindings',
  'ScheduleWakeup',
]);

/**
 * The error categories of every `is_error` result, per version. Reviewed one by one against the messages
 * (see docs/envelope.md): Bash failures are exit codes (1.0.128 prints no "Exit code" line), print-mode
 * denials of ExitPlanMode/AskUserQuestion are user rejections, MCP server failures are api-error.
 */
const EXPECTED_CATEGORIES: Record<string, Record<string, number>> = {
  '1.0.128': {
    'api-error': 2,
    'exit-code': 5,
    'file-not-found': 6,
    'file-not-read': 3,
    'hook-blocked': 1,
    network: 4,
    'not-running': 3,
    other: 2,
    'permission-denied': 6,
    'string-not-found': 3,
    timeout: 1,
    'unknown-tool': 2,
    'user-rejected': 1,
    validation: 12,
  },
  '2.0.50': {
    'api-error': 2,
    'exit-code': 5,
    'file-not-found': 6,
    'file-not-read': 3,
    'hook-blocked': 1,
    network: 4,
    'not-running': 3,
    other: 2,
    'permission-denied': 6,
    'string-not-found': 2,
    'unknown-tool': 2,
    'user-rejected': 1,
    validation: 13,
  },
  '2.0.76': {
    'api-error': 2,
    'exit-code': 5,
    'file-not-found': 7,
    'file-not-read': 3,
    'hook-blocked': 1,
    network: 4,
    'not-running': 3,
    other: 2,
    'permission-denied': 6,
    'string-not-found': 2,
    'unknown-tool': 2,
    'user-rejected': 3,
    validation: 12,
  },
  '2.1.330': {
    // the resource tools' failures are the client's to call the server (a server it does not know, no listing)
    'api-error': 2,
    'exit-code': 6,
    'file-not-found': 5,
    'hook-blocked': 1,
    network: 3,
    'not-running': 2,
    other: 2,
    'permission-denied': 6,
    'string-not-found': 2,
    timeout: 1,
    'unknown-tool': 3,
    validation: 16,
  },
};

interface RawCount {
  readonly results: Map<string, number>;
  readonly errors: Map<string, number>;
}

/** Count results and is_error results per tool name straight from the JSON lines, first result per id. */
function rawCounts(paths: readonly string[]): RawCount {
  const names = new Map<string, string>();
  const firstResult = new Map<string, boolean>();
  for (const path of paths) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let record: { message?: { content?: unknown } };
      try {
        record = JSON.parse(line) as typeof record;
      } catch {
        continue;
      }
      const content = record.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as {
        type?: string;
        id?: string;
        name?: string;
        tool_use_id?: string;
        is_error?: unknown;
      }[]) {
        if (block.type === 'tool_use' && block.id && block.name && !names.has(block.id))
          names.set(block.id, block.name);
        if (block.type === 'tool_result' && block.tool_use_id && !firstResult.has(block.tool_use_id)) {
          firstResult.set(block.tool_use_id, block.is_error === true);
        }
      }
    }
  }
  const results = new Map<string, number>();
  const errors = new Map<string, number>();
  for (const [id, isError] of firstResult) {
    const name = names.get(id);
    if (name === undefined) continue;
    results.set(name, (results.get(name) ?? 0) + 1);
    if (isError) errors.set(name, (errors.get(name) ?? 0) + 1);
  }
  return { results, errors };
}

async function loadVersion(version: string): Promise<{ sessions: Session[]; raw: RawCount }> {
  const { files } = await discoverFiles([join(corpusDir, version, 'claude-home')]);
  const groups = groupSessions(files);
  const sessions: Session[] = [];
  const results = new Map<string, number>();
  const errors = new Map<string, number>();
  for (const group of groups) {
    sessions.push(await loadSession(group));
    const paths = [...(group.main ? [group.main.path] : []), ...group.subagents.map((s) => s.path)];
    const raw = rawCounts(paths);
    for (const [k, v] of raw.results) results.set(k, (results.get(k) ?? 0) + v);
    for (const [k, v] of raw.errors) errors.set(k, (errors.get(k) ?? 0) + v);
  }
  return { sessions, raw: { results, errors } };
}

const sorted = (map: Map<string, number>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));

if (!hasCorpus) {
  describe('corpus results', () => {
    it.skip(`skipped: the real-client corpus is not at ${corpusDir} (it is in CI and on the team's machines)`, () => {});
  });
}

describe.skipIf(!hasCorpus)('corpus results (every result of every client version is typed)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const schemas = typedResultJsonSchemas();
  const validators = new Map(Object.entries(schemas).map(([kind, schema]) => [kind, ajv.compile(schema)]));

  for (const version of corpusVersions) {
    it(`${version}: no known tool ends as unknown, error counts match is_error, every result fits its schema`, async () => {
      const { sessions, raw } = await loadVersion(version);
      const calls = sessions.flatMap((s) => s.calls).filter((c) => c.result !== undefined);
      expect(calls.length).toBeGreaterThan(300);

      const unknown = calls
        .filter((c) => c.result?.typed.kind === 'unknown' && (KNOWN_TOOLS.has(c.name) || c.name.startsWith('mcp__')))
        .map((c) => `${c.name} ${c.loc.file}:${c.loc.line}`);
      expect(unknown).toEqual([]);

      const results = new Map<string, number>();
      const errors = new Map<string, number>();
      const categories = new Map<string, number>();
      for (const call of calls) {
        const result = call.result!;
        results.set(call.name, (results.get(call.name) ?? 0) + 1);
        if (result.error) {
          errors.set(call.name, (errors.get(call.name) ?? 0) + 1);
          categories.set(result.error.category, (categories.get(result.error.category) ?? 0) + 1);
          // A failed MCP call keeps its server and tool (typed mcp, with the error).
          expect(result.typed.kind).toBe(call.name.startsWith('mcp__') ? 'mcp' : 'error');
        } else {
          expect(result.typed.kind).not.toBe('error');
        }
        expect(result.error !== undefined).toBe(result.isError);
        if (call.name.startsWith('mcp__') && !result.isError) expect(result.typed.kind).toBe('mcp');

        const json = JSON.parse(JSON.stringify(result.typed)) as unknown;
        const validate = validators.get(result.typed.kind)!;
        const valid = validate(json);
        expect({
          call: `${call.name} ${call.loc.file}:${call.loc.line}`,
          valid,
          errors: validate.errors ?? [],
        }).toEqual({
          call: `${call.name} ${call.loc.file}:${call.loc.line}`,
          valid: true,
          errors: [],
        });
        const envelope = toEnvelope(call);
        if (envelope.success) expect(typeof envelope.data.output).toBe('string');
        else expect(envelope.error.length).toBeGreaterThan(0);
      }
      // Severity: expected only for user decisions and for stopping/reading a task that already ended.
      for (const call of calls) {
        const error = call.result?.error;
        if (!error) continue;
        const expected =
          error.category === 'user-rejected' ||
          (error.category === 'not-running' && ['TaskStop', 'TaskOutput'].includes(call.canonicalName));
        expect({ call: call.name, message: error.message, severity: error.severity }).toEqual({
          call: call.name,
          message: error.message,
          severity: expected ? 'expected' : 'error',
        });
        if (error.category === 'exit-code' && version !== '1.0.128') expect(error.exitCode).toBeGreaterThan(0);
      }

      // Images: every image block in a result becomes an ImageValue (Read of image.png, the MCP image tool).
      const withImageBlocks = calls.filter(
        (c) => typeof c.result?.content !== 'string' && c.result?.content.some((b) => b.kind === 'image'),
      );
      expect(withImageBlocks.map((c) => c.name).sort()).toEqual(['Read', 'mcp__rec__image']);
      for (const call of withImageBlocks) {
        expect(call.result?.images.length).toBe(1);
        expect(call.result?.images[0]?.data).toMatch(/^iVBORw0KGgo/);
      }

      expect(sorted(results)).toEqual(sorted(raw.results));
      expect(sorted(errors)).toEqual(sorted(raw.errors));
      // Every error is classified; `other` only for an MCP tool's own failure (as Gemini's and Codex's are).
      const unclassified = calls.filter((c) => c.result?.error?.category === 'other').map((c) => c.name);
      expect(unclassified.sort()).toEqual(['mcp__rec__fail', 'mcp__rec__throws']);
      expect(sorted(categories)).toEqual(EXPECTED_CATEGORIES[version]);
    });
  }
});
