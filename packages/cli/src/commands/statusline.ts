import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { BLOCK_MS, billingBlocks, blockAgents, totalsOf, totalTokens } from '@agentdash/core';
import { AmbiguousSessionError, blockChainStart, NewerDerivedIndexError } from '@agentdash/index';
import type { Context } from '../context.js';
import type { StatuslineJson } from '../output/json-types.js';
import { formatCost, formatRemaining, formatTokens } from '../usage-report.js';
import { COMMON_HELP, type CommandSpec, writeJson } from './common.js';
import { localDayMs } from './usage.js';

/** What Claude Code passes on standard input to a status line command (the fields used here). */
interface StatusInput {
  readonly sessionId?: string;
  readonly transcriptPath?: string;
  readonly model?: string;
}

function parseInput(text: string | undefined): StatusInput {
  if (text === undefined || text.trim() === '') return {};
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const model = json.model as Record<string, unknown> | undefined;
    return {
      ...(typeof json.session_id === 'string' ? { sessionId: json.session_id } : {}),
      ...(typeof json.transcript_path === 'string' ? { transcriptPath: json.transcript_path } : {}),
      ...(typeof model?.display_name === 'string' ? { model: model.display_name } : {}),
    };
  } catch {
    return {};
  }
}

/** `[<home>/projects]` for a transcript `<home>/projects/<project>/<session>.jsonl` when that folder exists, else `[]`. */
function projectsFolderOf(transcriptPath: string): string[] {
  const projects = dirname(dirname(resolve(transcriptPath)));
  if (basename(projects) !== 'projects') return [];
  try {
    return statSync(projects).isDirectory() ? [projects] : [];
  } catch {
    return [];
  }
}

export const statuslineCommand: CommandSpec = {
  name: 'statusline',
  usage: 'agentdash statusline [PATH…] [--json]',
  summary: "one line for Claude Code's status line: session cost, today's cost, the billing block's time left",
  help: `Reads the JSON Claude Code passes on standard input (session_id, transcript_path, model) when there is one,
and prints one line: the model, the current session's cost and tokens, today's cost, and the active 5-hour block's
cost and time left. Only the transcript's projects folder is refreshed, so it is fast on a warm index.

In ~/.claude/settings.json:  "statusLine": { "type": "command", "command": "agentdash statusline" }

${COMMON_HELP}`,
  options: {},
  async run(ctx, positionals) {
    try {
      await drawLine(ctx, positionals);
    } catch (error) {
      // Claude Code shows the first line of standard output, nothing of standard error: a failure said there too
      if (!ctx.json) ctx.io.stdout.write(`agentdash: ${failureWords(error)}\n`);
      throw error;
    }
  },
};

/** A failure in the few words a status line has room for; the whole message goes to standard error as always. */
function failureWords(error: unknown): string {
  if (error instanceof NewerDerivedIndexError)
    return 'the index is a newer AgentDash’s (upgrade, or agentdash index --rebuild)';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'INDEX_BUSY') return 'the index is busy (another agentdash is writing it)';
  if (code === 'INDEX_UNAVAILABLE')
    return 'the index cannot be used (run agentdash statusline in a terminal to see why)';
  return 'no status (run agentdash statusline in a terminal to see why)';
}

/** The status line (or `--json`) for what Claude Code passes on standard input, or for PATH. */
async function drawLine(ctx: Context, positionals: readonly string[]): Promise<void> {
  const input = parseInput(await ctx.io.readStdin?.());
  // .../projects/<project>/<session>.jsonl → the projects folder: every project counts for today and the block.
  // A transcript path elsewhere (/tmp/x.jsonl, a missing folder) refreshes nothing: its grandparent may be / or
  // /tmp, whose every transcript a refresh would read. The answer then comes from the index as it is.
  const paths =
    positionals.length === 0 && input.transcriptPath !== undefined
      ? projectsFolderOf(input.transcriptPath)
      : await ctx.resolvePaths(positionals);
  if (paths.length > 0) await ctx.refresh(paths);
  const index = await ctx.openIndex();
  const now = ctx.io.now();
  const today = new Date(now);
  const midnight = localDayMs(
    `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`,
    false,
  );
  // today's responses, and those of the account's blocks from where their chain starts (a block starts at the hour of
  // the first response after a 5-hour gap, and the next ones 5 hours on: reading from a later time moves them)
  const recentFrom = Math.min(midnight ?? now, now - 2 * BLOCK_MS);
  const recent = index.usageResponses({
    paths,
    since: Math.min(recentFrom, blockChainStart(index, { paths }, recentFrom)),
  });
  const todayTotals = totalsOf(recent.filter((r) => (r.timestampMs ?? 0) >= (midnight ?? now)));
  // the blocks of the agents whose usage limits they are (Claude Code's, whose status line this is)
  const block = billingBlocks(
    recent.filter((r) => blockAgents.includes(r.context.agent)),
    now,
  ).find((b) => b.isActive);
  // The transcript's path names one session; its id alone may name several (the same session copied to another
  // home or folder), and a status line that fails shows nothing at all.
  const ofFile = input.transcriptPath === undefined ? undefined : index.sessionIdOfFile(input.transcriptPath);
  const ref = ofFile ?? input.sessionId;
  let session: ReturnType<typeof index.getSession>;
  try {
    session = ref === undefined ? undefined : index.getSession(ref);
  } catch (error) {
    if (!(error instanceof AmbiguousSessionError)) throw error;
    session = undefined;
  }
  const sessionTokens = session ? totalTokens({ ...session.usage }) : 0;
  // "session cost unknown", not "unknown session": a model without a price, not a session not found
  const priced = (what: string, cost: number | null, gaps: Parameters<typeof formatCost>[1], words: string) =>
    cost === null ? `${what} cost unknown` : words.replace('$', () => formatCost(cost, gaps));
  const parts = [
    ...(input.model !== undefined ? [input.model] : []),
    ...(session
      ? [`${priced('session', session.costUsd, session, '$ session')} (${formatTokens(sessionTokens)} tokens)`]
      : []),
    priced('today', todayTotals.costUsd, todayTotals, '$ today'),
    ...(block
      ? [`${priced('block', block.usage.costUsd, block.usage, 'block $')}, ${formatRemaining(block.remainingMs)} left`]
      : []),
  ];
  const line = parts.join(' · ');
  if (ctx.json) {
    const out: StatuslineJson = {
      ...(session ? { sessionId: session.id } : {}),
      sessionCostUsd: session?.costUsd ?? null,
      sessionTokens,
      todayCostUsd: todayTotals.costUsd,
      ...(block
        ? {
            block: {
              costUsd: block.usage.costUsd,
              remainingMs: block.remainingMs,
              end: new Date(block.endMs).toISOString(),
            },
          }
        : {}),
      line,
    };
    writeJson(ctx, out);
    return;
  }
  ctx.io.stdout.write(`${line}\n`);
}
