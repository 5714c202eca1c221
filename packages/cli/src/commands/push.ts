import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import {
  FileCache,
  forget,
  isShareTier,
  type ProjectTier,
  type PushReport,
  parseProjectTier,
  push,
  TeamClient,
} from '@agentdash/team';
import { agentArg, flag, str } from '../args.js';
import { UsageError } from '../errors.js';
import { formatBytes, terminalText } from '../format.js';
import type { PushForgetJson, PushJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';
import { resolveSession } from './resolve-session.js';

const DEFAULT_INTERVAL_S = 5;
/** The version a push reports to the team server (run.ts's `VERSION`; the CLI's package version). */
const AGENTDASH_VERSION = '0.1.0';

export const pushCommand: CommandSpec = {
  name: 'push',
  usage:
    'agentdash push URL --token T [PATH…] [--share summary|metadata|full] [--share-project P=TIER]… [--watch] [--forget SESSION]',
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
                             project folder's name); may be given again; the first that matches wins
  --watch                    keep pushing what changes (every --interval seconds, default ${DEFAULT_INTERVAL_S}) until stopped
  --forget SESSION           remove this session from the team server instead (it stays on this machine)

${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    token: { type: 'string' },
    share: { type: 'string' },
    'share-project': { type: 'string', multiple: true },
    watch: { type: 'boolean' },
    interval: { type: 'string' },
    forget: { type: 'string' },
  },
  async run(ctx, positionals) {
    const [url, ...rest] = positionals;
    if (url === undefined) throw new UsageError('push needs the team server URL: agentdash push URL --token T');
    const token = str(ctx.values, 'token') ?? ctx.io.env.AGENTDASH_TEAM_TOKEN;
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
    const intervalText = str(ctx.values, 'interval');
    const interval = intervalText === undefined ? DEFAULT_INTERVAL_S : Number(intervalText);
    if (!Number.isFinite(interval) || interval <= 0) throw new UsageError('--interval must be a positive number');
    const client = new TeamClient({ url, token });
    const paths = await ctx.resolvePaths(rest);

    const forgetRef = str(ctx.values, 'forget');
    if (forgetRef !== undefined) {
      const ref = await resolveSession(ctx, forgetRef, rest);
      const index = await ctx.openIndex();
      const session = index.getSession(ref);
      if (!session) throw new UsageError(`no session matches "${forgetRef}"`);
      const forgotten = await forget(client, [session]);
      const out: PushForgetJson = { session: session.ref, forgotten };
      if (ctx.json) writeJson(ctx, out);
      else
        ctx.io.stdout.write(
          `${forgotten === 0 ? 'the team server did not hold' : 'removed'} session ${terminalText(session.ref)}\n`,
        );
      return;
    }

    const cache = FileCache.load(join(dirname(ctx.dbPath), 'push-chunks.json'));
    const once = async (): Promise<PushReport> => {
      await ctx.refresh(paths);
      const index = await ctx.openIndex();
      return push({
        index,
        client,
        cache,
        policy: { defaultTier: share, projects },
        device: { agentdash: AGENTDASH_VERSION, hostname: safeHostname(), platform: process.platform },
        filter: { paths, ...agentArg(ctx.values) },
      });
    };
    const print = (report: PushReport) => {
      if (ctx.json) {
        const out: PushJson = { url, ...report };
        writeJson(ctx, out);
        return;
      }
      ctx.io.stdout.write(
        `pushed to ${terminalText(url)} as ${terminalText(report.person)}${report.device ? `/${terminalText(report.device)}` : ''}: ${
          report.sessions
        } sessions (${tierText(report)}); ${report.stored} stored, ${report.unchanged} unchanged${
          report.chunks > 0 ? `; ${report.chunksUploaded} of ${report.chunks} transcript chunks sent` : ''
        }; ${formatBytes(report.bytesSent)} sent in ${report.requests} requests\n`,
      );
    };
    print(await once());
    if (!flag(ctx.values, 'watch')) return;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      while (!stop.signal.aborted) {
        await new Promise<void>((done) => {
          const timer = setTimeout(done, interval * 1000);
          stop.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            done();
          });
        });
        if (stop.signal.aborted) break;
        const report = await once();
        if (report.stored > 0 || ctx.json) print(report);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};

function tierText(report: PushReport): string {
  const parts = Object.entries(report.tiers)
    .filter(([, n]) => n > 0)
    .map(([tier, n]) => `${n} ${tier}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function safeHostname(): string | null {
  try {
    return hostname();
  } catch {
    return null;
  }
}
