import { dirname, join } from 'node:path';
import { messageOf } from '@agentdash/core/base';
import type { AgentIndex } from '@agentdash/index';
import {
  FileCache,
  ForgottenSessions,
  forget,
  isShareTier,
  type ProjectTier,
  type PushReport,
  parseProjectTier,
  push,
  pushLoop,
  TeamClient,
  teamApiBase,
  unforget,
} from '@agentdash/team';
import { agentArg, agentOption, flag, str } from '../args.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { formatBytes, formatCount, plural, terminalText } from '../format.js';
import type { PushForgetJson, PushJson, PushUnforgetJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';
import { dryRun } from './push-dry-run.js';
import { resolveSession } from './resolve-session.js';

const DEFAULT_INTERVAL_S = 5;
/** Rounds of `--watch` between pushes made whatever the refresh read (60 rounds: 5 minutes at the default). */
const ROUNDS_PER_FULL_CHECK = 60;
/** The version a push reports to the team server (run.ts's `VERSION`; the CLI's package version). */
const AGENTDASH_VERSION = '0.1.0';

export const pushCommand: CommandSpec = {
  name: 'push',
  usage:
    'agentdash push URL --token T [PATH…] [--share summary|metadata|full] [--share-project P=TIER]… [--dry-run | --payloads | --watch] [--forget SESSION] [--unforget SESSION]',
  summary: "send this machine's sessions to a team server, at the tier you choose",
  help: `Sends what the local index holds (every agent, archived sessions included) to the team server at URL, as the
device whose token is given (--token, or $AGENTDASH_TEAM_TOKEN). Idempotent and resumable: only sessions the
server lacks or holds differently are sent; a push stopped at any point sends the rest next time.

  --share TIER               what leaves this machine (default summary):
                               summary   numbers only: agent, model, times, tokens, cost, tool names with call and
                                         error counts and categories; no title, prompt, path, command or output
                                         (projects are a salted hash)
                               metadata  plus titles, project names, each call's one-line summary and error message,
                                         secrets redacted
                               full      plus the transcripts themselves, secrets redacted: the team timeline equals
                                         the local one
  --share-project P=TIER     another tier for the sessions of project P (a project path, a folder above it, or a
                             project folder's name: one starting with "-" as --share-project=-home-me-x=full); may be
                             given again; the first that matches wins
  --dry-run                  send nothing: each project with its tier and what its sessions would send (the server
                             is asked only who the token is: its salt hashes the summary tier's projects)
  --payloads                 a dry run writing each session exactly as it would leave, one JSON line each
  --chunks DIR               with --dry-run or --payloads: also write each full-tier transcript chunk, as it would
                             leave (redacted), into DIR as <sha256>.txt (the names the payloads' files list)
  --agent AGENT              push only one agent's sessions
  --watch                    keep pushing what changes (every --interval seconds, default ${DEFAULT_INTERVAL_S}) until stopped
  --forget SESSION           remove this session from the team server instead (it stays on this machine), and never
                             push it again from here (kept in push-forgotten.json beside the index)
  --unforget SESSION         let later pushes send this forgotten session again

${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    ...agentOption,
    token: { type: 'string' },
    share: { type: 'string' },
    'share-project': { type: 'string', multiple: true },
    watch: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    payloads: { type: 'boolean' },
    chunks: { type: 'string' },
    interval: { type: 'string' },
    forget: { type: 'string' },
    unforget: { type: 'string' },
  },
  async run(ctx, positionals) {
    const [url, ...rest] = positionals;
    if (url === undefined) throw new UsageError('push needs the team server URL: agentdash push URL --token T');
    const intervalText = str(ctx.values, 'interval');
    const interval = intervalText === undefined ? DEFAULT_INTERVAL_S : Number(intervalText);
    if (!Number.isFinite(interval) || interval <= 0) throw new UsageError('--interval must be a positive number');
    const setup = pushSetup(ctx, url, str(ctx.values, 'token'));
    const client = setup.client;

    const forgetRef = str(ctx.values, 'forget');
    const unforgetRef = str(ctx.values, 'unforget');
    const payloads = flag(ctx.values, 'payloads');
    const dry = payloads || flag(ctx.values, 'dry-run');
    const chunksDir = str(ctx.values, 'chunks');
    if (chunksDir !== undefined && !dry) throw new UsageError('--chunks goes with --dry-run or --payloads');
    const modes = [
      forgetRef !== undefined && '--forget',
      unforgetRef !== undefined && '--unforget',
      dry && (payloads ? '--payloads' : '--dry-run'),
      flag(ctx.values, 'watch') && '--watch',
    ].filter((m) => m !== false);
    if (modes.length > 1) throw new UsageError(`${modes.join(' and ')}: one at a time`);
    if (forgetRef !== undefined || unforgetRef !== undefined) {
      const named = (forgetRef ?? unforgetRef) as string;
      const ref = await resolveSession(ctx, named, rest);
      const index = await ctx.openIndex();
      const session = index.getSession(ref);
      if (!session) throw new UsageError(`no session matches "${named}"`);
      if (unforgetRef !== undefined) {
        const taken = await unforget(client, [session], setup.forgotten);
        const out: PushUnforgetJson = { session: session.ref, unforgotten: taken };
        if (ctx.json) writeJson(ctx, out);
        else
          ctx.io.stdout.write(
            `${taken === 0 ? 'was not forgotten' : 'later pushes send it again'}: session ${terminalText(session.ref)}\n`,
          );
        return;
      }
      const forgotten = await forget(client, [session], setup.forgotten);
      const out: PushForgetJson = { session: session.ref, forgotten };
      if (ctx.json) writeJson(ctx, out);
      else
        ctx.io.stdout.write(
          `${forgotten === 0 ? 'the team server did not hold' : 'removed'} session ${terminalText(session.ref)}; later pushes leave it out (--unforget sends it again)\n`,
        );
      return;
    }

    const paths = await pushablePaths(ctx, rest);
    const options = setup.options(paths);
    if (dry) {
      await ctx.refresh(paths);
      await dryRun(ctx, url, options, payloads, chunksDir);
      return;
    }
    const pushNow = async (): Promise<PushReport> => push({ index: await ctx.openIndex(), ...options });
    const warned = new Set<string>();
    const print = (report: PushReport) => {
      warnUnmatched(ctx, report, warned);
      for (const { session, reason } of report.skipped)
        ctx.note(`not pushed: session ${terminalText(session)} (${reason})`);
      for (const { session, reason } of report.lowered)
        ctx.note(`sent at the metadata tier: session ${terminalText(session)} (${terminalText(reason)})`);
      if (ctx.json) {
        const out: PushJson = { url, ...report };
        writeJson(ctx, out);
        return;
      }
      ctx.io.stdout.write(`${pushText(url, report)}\n`);
    };
    await ctx.refresh(paths);
    print(await pushNow());
    if (!flag(ctx.values, 'watch')) return;
    // Each round refreshes the index; a push follows when it read or dropped something (and every few minutes, for
    // what changes without a byte on disk: a session that stops being live).
    let changes = 0;
    let rounds = 0;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      await pushLoop({
        once: pushNow,
        stamp: async () => {
          const report = await ctx.refresh(paths);
          rounds += 1;
          if (report.bytesParsed > 0 || report.filesRemoved > 0 || rounds % ROUNDS_PER_FULL_CHECK === 0) changes += 1;
          return String(changes);
        },
        intervalMs: interval * 1000,
        signal: stop.signal,
        onReport: (report) => {
          if (report.stored > 0 || report.superseded > 0) print(report);
        },
        // a refused token (revoked, unknown, a viewer's) ends the watch as it ends one push: its message, exit 11
        onError: (error) => ctx.note(`push failed (retrying): ${messageOf(error)}`),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

/**
 * The options shared by `push` and `serve --push`: token, tiers, the chunk cache, the device; checked (a bad one is a
 * UsageError) before the paths are resolved, which `options` then takes.
 */
/**
 * The paths a push reads: those named, else the agents' homes; never the bundled sample sessions other commands show
 * on a machine without transcripts (they would be stored as this person's work, in the team's sessions and costs).
 */
export async function pushablePaths(ctx: Context, positionals: readonly string[]): Promise<string[]> {
  const paths = await ctx.resolvePaths(positionals, { samples: false });
  if (paths.length === 0) {
    throw new UsageError(
      'nothing to push: no agent transcripts on this machine, and the bundled sample sessions are never pushed (name a PATH to push its transcripts)',
    );
  }
  return paths;
}

export function pushSetup(ctx: Context, url: string, tokenArg: string | undefined) {
  // the address first: a mistyped one is what to mend, whatever else is missing
  teamApiBase(url);
  const token = tokenArg ?? ctx.io.env.AGENTDASH_TEAM_TOKEN;
  if (token === undefined || token === '') {
    throw new UsageError('push needs a device token: --token T or $AGENTDASH_TEAM_TOKEN (agentdash team add-device)');
  }
  const share = str(ctx.values, 'share') ?? 'summary';
  if (!isShareTier(share)) throw new UsageError(`--share must be summary, metadata or full, got "${share}"`);
  const projects: ProjectTier[] = [];
  for (const arg of (ctx.values['share-project'] as unknown as string[] | undefined) ?? []) {
    const parsed = parseProjectTier(arg);
    if (typeof parsed === 'string') throw new UsageError(parsed);
    projects.push(parsed);
  }
  const agent = agentArg(ctx.values);
  // A request put off is said at once, once per reason (a team server whose database is down answers 503 for as long
  // as it is: silence then looked like a hang, and the end of it like a busy server).
  const said = new Set<string>();
  const onLater = (why: string) => {
    if (said.has(why)) return;
    said.add(why);
    ctx.note(`${why}: sending again, for up to 30 minutes (Ctrl-C stops)`);
  };
  const client = new TeamClient({ url, token, onLater });
  const forgotten = ForgottenSessions.load(join(dirname(ctx.dbPath), 'push-forgotten.json'));
  return {
    client,
    forgotten,
    /** What a push of the sessions under these paths takes. */
    options: (paths: readonly string[]) => ({
      client,
      cache: FileCache.load(join(dirname(ctx.dbPath), 'push-chunks.json')),
      forgotten,
      policy: { defaultTier: share, projects },
      // no hostname: nothing on the team server shows it (the device is named by its token)
      device: { agentdash: AGENTDASH_VERSION, platform: process.platform },
      filter: { paths, ...agent },
    }),
  };
}

/**
 * A `--share-project` rule that named no session is said once per process (a `--watch` round after round would
 * repeat it): a typo in a rule meant to keep a project lower would send it at the default tier unnoticed.
 */
function warnUnmatched(ctx: Context, report: PushReport, warned: Set<string>): void {
  warnReplaced(ctx, report);
  for (const rule of report.unmatchedRules) {
    if (warned.has(rule)) continue;
    warned.add(rule);
    ctx.note(
      `warning: --share-project ${terminalText(rule)} names no session pushed (its project's path or folder name?): ` +
        `sessions not named by a rule go at the default tier`,
    );
  }
}

/**
 * Sessions the team server held at a higher tier, replaced by this push's lower one (what the higher held is gone
 * there), said by how many went from which tier to which: pushing at another `--share` than before (or `serve --push`,
 * summary by default, after `push --share full`) is a choice a person should see made.
 */
function warnReplaced(ctx: Context, report: PushReport): void {
  const counts = new Map<string, number>();
  for (const r of report.replacedHigher)
    counts.set(`${r.from} to ${r.to}`, (counts.get(`${r.from} to ${r.to}`) ?? 0) + 1);
  for (const [change, n] of counts) {
    ctx.note(
      `warning: ${n} session${n === 1 ? '' : 's'} the team server held at a higher tier went from ${change}: ` +
        'what the higher tier held is gone there (push at that --share to send it again)',
    );
  }
}

/**
 * `serve --push URL`: push the served index to a team server whenever it changes, until `signal` aborts. Failures
 * are noted once and retried; a refused token (`stopsPushing`) stops the pushes, said once, and the dashboard goes on.
 */
export function servePush(ctx: Context, index: AgentIndex, url: string, paths: readonly string[], signal: AbortSignal) {
  const options = pushSetup(ctx, url, str(ctx.values, 'push-token')).options(paths);
  const warned = new Set<string>();
  return pushLoop({
    once: () => push({ index, ...options }),
    stamp: () => index.dataVersion(),
    intervalMs: DEFAULT_INTERVAL_S * 1000,
    signal,
    onReport: (report) => {
      warnUnmatched(ctx, report, warned);
      if (report.stored > 0 || report.superseded > 0) ctx.note(pushText(url, report));
    },
    onError: (error) => ctx.note(`push failed (retrying): ${messageOf(error)}`),
  }).catch((error: unknown) => ctx.note(`push stopped: ${messageOf(error)} (the dashboard goes on)`));
}

/**
 * One push in words: `pushed to URL as ann/laptop: 12 sessions (12 summary); 3 stored, 9 unchanged; 2 KiB sent …`,
 * each count as the CLI writes counts (`1,200`), with its noun in the singular for one.
 */
export function pushText(url: string, report: PushReport): string {
  const n = formatCount;
  return `pushed to ${terminalText(url)} as ${terminalText(report.person)}${
    report.device ? `/${terminalText(report.device)}` : ''
  }: ${plural(report.sessions, 'session')} (${tierText(report)}${
    report.forgotten > 0 ? `; ${n(report.forgotten)} forgotten left out` : ''
  }); ${n(report.stored)} stored, ${n(report.unchanged)} unchanged${
    report.superseded > 0
      ? `, ${n(report.superseded)} taken back (their transcripts now sent: they were CI run outputs)`
      : ''
  }${
    report.chunks > 0 ? `; ${n(report.chunksUploaded)} of ${plural(report.chunks, 'transcript chunk')} sent` : ''
  }; ${formatBytes(report.bytesSent)} sent in ${plural(report.requests, 'request')}${
    report.retried > 0
      ? ` (${n(report.retried)} sent again: ${report.retriedBecause ?? 'the team server was busy'})`
      : ''
  }`;
}

function tierText(report: PushReport): string {
  const parts = Object.entries(report.tiers)
    .filter(([, n]) => n > 0)
    .map(([tier, n]) => `${formatCount(n)} ${tier}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}
