// What `npm run drift` measures over one recording: the adapter reads it the way the dashboard does, the shared
// conformance suite runs over it, and what it finds is compared with the recording's own manifest (calls per tool,
// failures) and truth (every response the scripted model served). Needs a build (`npm run build`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { root } from './agents.mjs';

const core = await import(join(root, 'packages/core/dist/index.js'));
const { conformanceCases } = await import(join(root, 'packages/core/dist/agents/conformance.js'));
const { agentAdapters, groupSessions, loadSession } = core;

export const adapterOf = (agent) => agentAdapters.find((a) => a.id === agent);

/** Every session under a home, loaded, with the files the adapter found. */
export async function loadAll(adapter, roots) {
  let files = [];
  for (const r of roots) files = files.concat((await adapter.discover(r)).files);
  const sessions = [];
  for (const group of groupSessions(files)) sessions.push(await loadSession(group));
  return { files, sessions };
}

/** A served response's usage in AgentDash's terms: OpenAI Chat Completions or Responses, Anthropic Messages, Gemini. */
export function servedUsage(usage) {
  if (usage.promptTokenCount !== undefined) {
    // Gemini: promptTokenCount holds the cached part; thoughts are billed as output.
    const cached = usage.cachedContentTokenCount ?? 0;
    const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
    return { input: usage.promptTokenCount - cached, output, cacheWrite: 0, cacheRead: cached };
  }
  if (usage.input_tokens_details !== undefined) {
    // OpenAI Responses: input_tokens holds the cached part.
    const cached = usage.input_tokens_details.cached_tokens ?? 0;
    return { input: usage.input_tokens - cached, output: usage.output_tokens, cacheWrite: 0, cacheRead: cached };
  }
  if (usage.input_tokens !== undefined) {
    return {
      input: usage.input_tokens,
      output: usage.output_tokens,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
      cacheRead: usage.cache_read_input_tokens ?? 0,
    };
  }
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { input: usage.prompt_tokens - cached, output: usage.completion_tokens, cacheWrite: 0, cacheRead: cached };
}
const recordedUsage = (u) => ({
  input: u.inputTokens,
  output: u.outputTokens,
  cacheWrite: u.cacheCreationInputTokens,
  cacheRead: u.cacheReadInputTokens,
});
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const add = (a, b) => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  cacheRead: a.cacheRead + b.cacheRead,
});
const zero = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };

/**
 * Tokens against the truth. By response id where the client records the id it was served (each recorded response
 * must carry exactly what was served); otherwise per scenario, the session's totals against the responses served
 * for it. A response the client never wrote (a side request) is counted apart, not a mismatch.
 */
export async function compareTokens(adapter, files, sessions, served) {
  const byId = new Map();
  for (const file of files) {
    await adapter.streamRecords(
      file,
      (e) => {
        if (e.kind === 'record' && e.record.kind === 'assistant' && e.record.usage !== undefined) {
          byId.set(e.record.messageId ?? '', recordedUsage(e.record.usage));
        }
      },
      {},
    );
  }
  // Recorders name the response id `id`, `responseId` (Responses API) or `messageId`; no status means it answered.
  const answered = served
    .filter((s) => (s.status ?? 200) === 200 && s.usage !== null && s.usage !== undefined)
    .map((s) => ({ ...s, id: s.id ?? s.responseId ?? s.messageId }));
  const matchedIds = answered.filter((s) => byId.has(s.id));
  if (matchedIds.length > 0) {
    const mismatched = matchedIds.filter((s) => !same(byId.get(s.id), servedUsage(s.usage))).map((s) => s.id);
    const unrecorded = answered.filter((s) => !byId.has(s.id));
    return {
      by: 'response id',
      compared: matchedIds.length,
      mismatched,
      unrecorded: unrecorded.map((s) => `${s.id} (${s.kind})`),
    };
  }
  const mismatched = [];
  const scenarios = new Set(answered.map((s) => s.scenario));
  for (const scenario of scenarios) {
    // side requests (Gemini CLI's model router, Claude Code's titles) are not written in the transcript
    const want = answered
      .filter((s) => s.scenario === scenario && s.kind !== 'side')
      .reduce((t, s) => add(t, servedUsage(s.usage)), zero);
    const got = sessions
      .filter((s) => basename(s.projectPath ?? '') === scenario)
      .flatMap((s) => Object.values(s.usageByModel))
      .reduce((t, u) => add(t, recordedUsage(u)), zero);
    if (!same(want, got)) mismatched.push(`${scenario}: served ${JSON.stringify(want)}, read ${JSON.stringify(got)}`);
  }
  return { by: 'scenario totals (no response id recorded)', compared: scenarios.size, mismatched, unrecorded: [] };
}

/**
 * Calls per tool and failures against the manifest the recorder wrote. The Codex and Gemini recorders' manifests
 * count calls per file (Codex) or not at all (Gemini) and list no failures: what they do not hold is not compared,
 * and `unchecked` says so.
 */
export function compareManifest(sessions, manifest) {
  const calls = sessions.flatMap((s) => [...s.calls]);
  const counts = {};
  for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
  const problems = [];
  const unchecked = [];
  const files = manifest.files ?? [];
  if (manifest.toolCallsByName !== undefined) {
    const want = manifest.toolCallsByName;
    for (const name of new Set([...Object.keys(want), ...Object.keys(counts)])) {
      if ((want[name] ?? 0) !== (counts[name] ?? 0)) {
        problems.push(`${name}: manifest ${want[name] ?? 0}, read ${counts[name] ?? 0}`);
      }
    }
  } else if (files.some((f) => typeof f.calls === 'number')) {
    const want = files.reduce((n, f) => n + (typeof f.calls === 'number' ? f.calls : 0), 0);
    if (want !== calls.length) problems.push(`calls: manifest ${want}, read ${calls.length}`);
    unchecked.push('calls per tool (the manifest counts calls per file)');
  } else unchecked.push('calls (the manifest does not count them)');
  if (files.some((f) => Array.isArray(f.failedByClient) || Array.isArray(f.expectedFailures))) {
    const wantFailed = new Set(
      files.flatMap((f) => [...(f.failedByClient ?? []).map((x) => x.callId), ...(f.expectedFailures ?? [])]),
    );
    const failed = new Set(calls.filter((c) => c.status === 'error').map((c) => String(c.id)));
    for (const id of wantFailed) if (!failed.has(id)) problems.push(`${id}: failed, read as ok`);
    for (const id of failed) if (!wantFailed.has(id)) problems.push(`${id}: read as failed, not in the manifest`);
  } else unchecked.push('failures (the manifest lists none)');
  const failed = calls.filter((c) => c.status === 'error').length;
  return { calls: calls.length, failed, problems, unchecked };
}

/** The shared conformance suite over a recording's home: the failures, each a sentence. */
export async function runConformance(adapter, home) {
  const scratch = mkdtempSync(join(tmpdir(), 'agentdash-drift-'));
  const failures = [];
  try {
    for (const c of conformanceCases({ adapter, fixtures: [home], scratchDir: scratch })) {
      if (c.skipReason !== undefined) continue;
      for (const f of await c.run()) failures.push(`${c.check}: ${f}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return failures;
}

/** The served responses of a recording's truth.jsonl. */
export const readServed = (dir) =>
  readFileSync(join(dir, 'truth.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
