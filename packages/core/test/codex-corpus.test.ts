import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { codexAdapter } from '../src/adapters/codex/adapter.js';
import { groupSessions } from '../src/index.js';
import type { Session } from '../src/model/session.js';
import { loadSession } from '../src/session/load-session.js';
import { repoRoot } from './helpers.js';

/** Codex CLI rollouts written by the real clients against a scripted model API, with what was served. */
const sharedCorpus = resolve(repoRoot, '../shared/corpus-agents/codex');
/** The same, trimmed to a few scenarios per version and bundled (long instruction texts cut). */
const bundled = resolve(repoRoot, 'packages/core/test/fixtures/codex');
const versions = ['0.50.0', '0.98.0', '0.169.0'] as const;
const corpora = [
  { name: 'bundled Codex fixtures', dir: bundled, present: true },
  { name: 'Codex corpus (real clients, scripted API)', dir: sharedCorpus, present: existsSync(sharedCorpus) },
];

interface ManifestFile {
  readonly path: string;
  readonly scenario: string;
  readonly toolCallsByName: Readonly<Record<string, number>>;
  readonly outputsThatLookLikeErrors: readonly {
    readonly callId: string;
    readonly name: string;
    readonly error: string;
  }[];
}
interface Served {
  readonly scenario: string;
  readonly usage?: null | {
    readonly input_tokens: number;
    readonly input_tokens_details?: { readonly cached_tokens?: number };
    readonly output_tokens: number;
    readonly output_tokens_details?: { readonly reasoning_tokens?: number };
  };
}

/** The manifest names a namespaced (0.169 MCP) tool `namespace:name`; the adapter joins them as `namespace__name`. */
const manifestName = (name: string): string => name.replace(':', '__');

/**
 * The manifest's failure list is a heuristic over output text: it also lists shell commands that exited non-zero
 * ("exit N"), which are failed calls as in Claude Code (category `exit-code`, the code on the error).
 */
const isExitCodeOnly = (error: string): boolean => /^exit \d+$/.test(error);

async function loadVersion(
  codexCorpus: string,
  version: string,
): Promise<{ manifest: ManifestFile[]; served: Served[]; sessions: Map<string, Session> }> {
  const dir = join(codexCorpus, version);
  const manifest = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: ManifestFile[] }).files;
  const served = readFileSync(join(dir, 'truth.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Served);
  const { files } = await codexAdapter.discover(join(dir, 'codex-home'));
  const sessions = new Map<string, Session>();
  for (const group of groupSessions(files)) {
    const session = await loadSession(group);
    for (const file of session.files) sessions.set(file.path, session);
  }
  return { manifest, served, sessions };
}

describe.each(corpora)('$name', ({ dir: codexCorpus, present }) => {
  describe.skipIf(!present).each(versions)('Codex %s', (version) => {
    test('every rollout is found, as a Codex session, each its own', async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      const paths = manifest.map((f) => join(codexCorpus, version, f.path)).sort();
      expect([...sessions.keys()].sort()).toEqual(paths);
      expect(new Set([...sessions.values()].map((s) => s.agent))).toEqual(new Set(['codex']));
    });

    test('calls per tool equal the manifest', async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        const counts: Record<string, number> = {};
        for (const call of session?.calls ?? []) counts[call.name] = (counts[call.name] ?? 0) + 1;
        const want = Object.fromEntries(Object.entries(file.toolCallsByName).map(([k, v]) => [manifestName(k), v]));
        // Items without a name are listed by their type; the adapter names them as tools.
        const renamed = Object.fromEntries(Object.entries(want).map(([k, v]) => [k.replace(/_call$/, ''), v] as const));
        expect({ scenario: file.scenario, counts }).toEqual({ scenario: file.scenario, counts: renamed });
      }
    });

    test('failures equal the manifest; non-zero exits are exit-code errors with their code', async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        const calls = session?.calls ?? [];
        const failed = calls
          .filter((c) => c.status === 'error')
          .map((c) => c.id as string)
          .sort();
        const interrupted = calls.filter((c) => c.result?.error?.category === 'interrupted').map((c) => c.id as string);
        const want = file.outputsThatLookLikeErrors.map((e) => e.callId);
        // "aborted by user" (Ctrl-C during a command) is a failed call in every version; 0.98's manifest heuristic
        // does not list it.
        expect({ scenario: file.scenario, failed }).toEqual({
          scenario: file.scenario,
          failed: [...new Set([...want, ...interrupted])].sort(),
        });
        for (const exit of file.outputsThatLookLikeErrors.filter((e) => isExitCodeOnly(e.error))) {
          const call = calls.find((c) => c.id === exit.callId);
          expect({
            status: call?.status,
            kind: call?.result?.typed.kind,
            category: call?.result?.error?.category,
            severity: call?.result?.error?.severity,
            exitCode: call?.result?.error?.exitCode,
          }).toEqual({
            status: 'error',
            kind: 'error',
            category: 'exit-code',
            severity: 'error',
            exitCode: Number(exit.error.slice('exit '.length)),
          });
        }
      }
    });

    test('tokens equal what was served, per scenario, each response once', async () => {
      const { manifest, served, sessions } = await loadVersion(codexCorpus, version);
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        const totals = Object.values(session?.usageByModel ?? {});
        const got = {
          responses: totals.reduce((n, t) => n + t.responses, 0),
          input: totals.reduce((n, t) => n + t.inputTokens, 0),
          cacheRead: totals.reduce((n, t) => n + t.cacheReadInputTokens, 0),
          output: totals.reduce((n, t) => n + t.outputTokens, 0),
          reasoning: totals.reduce((n, t) => n + t.reasoningOutputTokens, 0),
        };
        const mine = served.filter((s) => s.scenario === file.scenario && s.usage != null);
        const want = {
          responses: mine.length,
          input: mine.reduce(
            (n, s) => n + (s.usage?.input_tokens ?? 0) - (s.usage?.input_tokens_details?.cached_tokens ?? 0),
            0,
          ),
          cacheRead: mine.reduce((n, s) => n + (s.usage?.input_tokens_details?.cached_tokens ?? 0), 0),
          output: mine.reduce((n, s) => n + (s.usage?.output_tokens ?? 0), 0),
          // Part of the output above (never added to it), shown on its own.
          reasoning: mine.reduce((n, s) => n + (s.usage?.output_tokens_details?.reasoning_tokens ?? 0), 0),
        };
        expect({ scenario: file.scenario, ...got }).toEqual({ scenario: file.scenario, ...want });
      }
    });

    test('every session lists the model it asked for, one whose only request failed too', async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      const asked = (JSON.parse(readFileSync(join(codexCorpus, version, 'manifest.json'), 'utf8')) as { model: string })
        .model;
      // Was [] for api-fatal (a 400 answers its one request): a model was named only by a response's usage.
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        expect({ scenario: file.scenario, models: session?.models }).toEqual({
          scenario: file.scenario,
          models: [asked],
        });
      }
    });

    test('every result pairs with its call: no session has a pairing issue', async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      const PAIRING = new Set(['orphan_result', 'duplicate_result', 'reused_call_id']);
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        // 0.169's goals wrote its context as an output with no call id (additional_context_tool_output)
        const pairing = (session?.issues ?? []).filter((i) => PAIRING.has(i.code)).map((i) => `${i.code}:${i.line}`);
        expect({ scenario: file.scenario, pairing }).toEqual({ scenario: file.scenario, pairing: [] });
      }
    });

    test("every prompt is the scenario's words: a view_image call's image is the call's, no prompt", async () => {
      const { manifest, sessions } = await loadVersion(codexCorpus, version);
      for (const file of manifest) {
        const session = sessions.get(join(codexCorpus, version, file.path));
        // 0.50 and 0.98 send the image read as a message of its own: it was a blank prompt with the image
        const blank = (session?.events ?? []).filter((e) => e.kind === 'prompt' && e.text.trim() === '').length;
        expect({ scenario: file.scenario, blank }).toEqual({ scenario: file.scenario, blank: 0 });
      }
    });
  });
});
