import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamRecords } from '../src/adapters/claude-code/read-records.js';
import { discoverFiles, groupSessions } from '../src/index.js';
import { timestampMs } from '../src/model/ids.js';
import type { AssistantRecord } from '../src/model/record.js';
import type { Session } from '../src/model/session.js';
import { loadSession } from '../src/session/load-session.js';
import type { UsageRecord } from '../src/usage/dedupe.js';
import { zeroTokens } from '../src/usage/tokens.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/**
 * Real Claude Code transcripts kept with core (always present): a copy of the CLI's bundled samples, so core's
 * tests and its conformance suite read nothing from another package.
 */
export const samplesHome = join(repoRoot, 'packages/core/test/fixtures/claude/claude-home');
/** The Claude Code fixtures the adapter conformance suite reads. */
export const claudeFixtures = samplesHome;
/** Codex CLI rollouts bundled with core (trimmed from the agent corpus and public repositories). */
export const codexFixtures = join(repoRoot, 'packages/core/test/fixtures/codex');
/** The full real-client corpus, present in CI and on the team's machines, absent in a user's clone. */
export const corpusDir = resolve(repoRoot, '../shared/corpus');
export const hasCorpus = existsSync(corpusDir);
export const corpusVersions = ['1.0.128', '2.0.50', '2.0.76', '2.1.330'] as const;

export async function loadSessions(path: string): Promise<Session[]> {
  const { files } = await discoverFiles([path]);
  return Promise.all(groupSessions(files).map((group) => loadSession(group)));
}

export async function loadSampleSession(project: string, sessionId: string): Promise<Session> {
  const sessions = await loadSessions(join(samplesHome, 'projects', project));
  const found = sessions.find((s) => s.id === sessionId);
  if (!found) throw new Error(`sample session ${sessionId} not found in ${project}`);
  return found;
}

/**
 * Every assistant record of a Claude home as core's usage counts it (`dedupeResponses`' input), each with the path
 * of its file.
 */
export async function usageRecordsUnder(home: string): Promise<UsageRecord<string>[]> {
  const { files } = await discoverFiles([home]);
  const records: UsageRecord<string>[] = [];
  for (const file of files) {
    await streamRecords(file.path, (event) => {
      if (event.kind === 'record' && event.record.kind === 'assistant')
        records.push(usageRecordOf(event.record, file.path));
    });
  }
  return records;
}

/** An assistant record as core's usage counts it (`dedupeResponses`' input), with `context`. */
export function usageRecordOf<C>(r: AssistantRecord, context: C): UsageRecord<C> {
  return {
    messageId: r.messageId,
    requestId: r.requestId,
    model: r.model,
    timestampMs: timestampMs(r.timestamp),
    isSynthetic: r.isSynthetic,
    tokens: { ...zeroTokens, ...r.usage },
    outputAtLeast: r.usage?.outputAtLeast,
    context,
  };
}
