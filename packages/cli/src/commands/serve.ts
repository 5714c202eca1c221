import { flag, portArg, str } from '../args.js';
import { CannotServeError, UsageError } from '../errors.js';
import { formatDuration, plural } from '../format.js';
import type { ServeJson } from '../output/json-types.js';
import { renderProgressBar } from '../progress-bar.js';
import { checkPaths } from './check-paths.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, writeJson } from './common.js';
import { TELEMETRY_AGENTS, telemetryAgentChoice } from './otel.js';

export const serveCommand: CommandSpec = {
  name: 'serve',
  usage:
    'agentdash serve [PATH…] [--port N] [--host H] [--token T] [--redact] | serve --team --pg URL [--tls-cert F --tls-key F]',
  summary: 'start the live dashboard',
  help: `Serves the dashboard and its JSON API at once and indexes PATH in the background (newest first; the sessions
list fills as files are read, with progress in the dashboard and on a terminal's stderr), then follows files as
they grow. Prints the URL and runs until interrupted (Ctrl-C).

${PATHS_HELP}

Options:
  --port N         port (default 4317; 0 picks a free one)
  --host H         interface (default 127.0.0.1)
  --token T        require this token (default: $AGENTDASH_TOKEN; none on loopback)
  --open-url       print the URL prominently (for npm start)
  --push URL       also push this index to the team server at URL whenever it changes (as "agentdash push
                   --watch"; --push-token T or $AGENTDASH_TEAM_TOKEN, --share TIER, --share-project P=TIER)
  --otlp-port N    also receive the agents' own telemetry (OTLP/HTTP, JSON or protobuf) on 127.0.0.1:N
                   (default 4318; 0 picks a free one; "agentdash otel setup" prints the settings); --no-otlp: do not
  --redact         redact on screen (for screen sharing): every secret in prompts, replies, thinking and tool
                   inputs and outputs is shown as [REDACTED:<rule>], and exports are always redacted; the
                   dashboard says so. Titles, project paths and branches are redacted with or without it.

Team server (docs/team.md): serves the sessions a team's machines push (agentdash push), from PostgreSQL.
  --team           be the team server instead of a local dashboard (no PATH; every request needs a team token)
  --pg URL         postgres://… (default: $AGENTDASH_PG_URL); --pg-schema S (default agentdash)
  --tls-cert FILE  with --tls-key FILE: HTTPS (else run it behind a reverse proxy for TLS)
  It listens on 127.0.0.1 unless a person or viewer exists (agentdash team add-person / add-viewer).

${COMMON_HELP}`,
  options: {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    token: { type: 'string' },
    'open-url': { type: 'boolean' },
    team: { type: 'boolean' },
    pg: { type: 'string' },
    'pg-schema': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    push: { type: 'string' },
    'push-token': { type: 'string' },
    share: { type: 'string' },
    'share-project': { type: 'string', multiple: true },
    redact: { type: 'boolean' },
    'otlp-port': { type: 'string' },
    'no-otlp': { type: 'boolean' },
  },
  async run(ctx, positionals) {
    // Loaded here, not at start-up: other commands need neither the server nor its HTTP stack.
    const port = portArg(ctx.values, 'port', 4317, true);
    const host = str(ctx.values, 'host') ?? '127.0.0.1';
    const otlpPort = flag(ctx.values, 'no-otlp') ? undefined : portArg(ctx.values, 'otlp-port', 4318, true);
    if (flag(ctx.values, 'team')) {
      if (positionals.length > 0) throw new UsageError('serve --team takes no PATH: laptops push to it');
      const { serveTeam } = await import('./serve-team.js');
      return await serveTeam(ctx, host, port, cannotServe);
    }
    for (const name of ['pg', 'pg-schema', 'tls-cert', 'tls-key']) {
      if (str(ctx.values, name) !== undefined) throw new UsageError(`--${name} is for a team server: add --team`);
    }
    const { isLoopbackHost, startServer } = await import('@agentdash/server');
    const token = str(ctx.values, 'token') ?? ctx.io.env.AGENTDASH_TOKEN;
    if (!isLoopbackHost(host) && (token === undefined || token === '')) {
      throw new UsageError(`--host ${host} is not a loopback address: give --token (or set AGENTDASH_TOKEN)`);
    }
    const pushUrl = str(ctx.values, 'push');
    // the push's options are checked before listening: a bad --share is a usage error, not a server that half runs
    const pushing = pushUrl === undefined ? undefined : await import('./push.js');
    if (pushing && pushUrl) pushing.pushSetup(ctx, pushUrl, str(ctx.values, 'push-token'));
    // The arguments first: the paths are resolved (the samples, for want of a home) once nothing is left to refuse.
    let paths = pushing ? await pushing.pushablePaths(ctx, positionals) : await ctx.resolvePaths(positionals);
    await checkPaths(paths, { archived: (path) => ctx.hasArchivedFilesUnder(path) });
    // Listen first, index in the background: the dashboard answers at once and fills as files are read.
    const showProgress = ctx.io.stderr.isTTY === true && !ctx.json && !flag(ctx.values, 'no-progress');
    const started = ctx.io.now();
    let lastDraw = 0;
    let drawn = false;
    const start = async (paths: string[], port: number) =>
      startServer({
        index: await ctx.openIndex(),
        paths,
        host,
        port,
        ...(token !== undefined && token !== '' ? { token } : {}),
        redact: flag(ctx.values, 'redact'),
        samples: ctx.showingSamples,
        noTranscripts: () => ctx.noTranscripts,
        ...(otlpPort === undefined ? {} : { otlpPort }),
        onProgress: (progress) => {
          const now = ctx.io.now();
          if (!showProgress || (progress.done < progress.total && now - lastDraw < 200)) return;
          lastDraw = now;
          ctx.io.stderr.write(`\r\u001b[2K${renderProgressBar(progress, now - started)}`);
          drawn = true;
        },
      }).catch((error: unknown) => {
        throw cannotServe(error, host, port);
      });
    let server = await start(paths, port);
    if (!isLoopbackHost(host)) {
      ctx.note(
        `warning: listening on ${host}, not only on this machine: anyone who can reach port ${new URL(server.url).port} ` +
          `and knows the token can read your transcripts. Open ${server.url}?token=<your --token> once; the browser ` +
          'then keeps it in a cookie.',
      );
    }
    const otlp = server.otlp;
    if (otlp !== undefined && 'error' in otlp) {
      const why = (otlp.error as { code?: unknown } | null)?.code === 'EADDRINUSE' ? 'in use' : String(otlp.error);
      ctx.note(
        `telemetry (OTLP) not received: port ${otlpPort} on 127.0.0.1 ${why} (choose another with --otlp-port N)`,
      );
    }
    if (ctx.json) {
      const out: ServeJson = {
        url: server.url,
        otlpEndpoint: otlp !== undefined && 'endpoint' in otlp ? otlp.endpoint : null,
      };
      writeJson(ctx, out);
    } else {
      ctx.io.stdout.write(
        `${flag(ctx.values, 'open-url') ? 'AgentDash is running at ' : ''}${ctx.color.bold(server.url)}\n`,
      );
      if (flag(ctx.values, 'redact')) ctx.note('redacting secrets on screen (--redact)');
      if (otlp !== undefined && 'endpoint' in otlp) {
        ctx.note(
          `receiving agent telemetry (OTLP) at ${otlp.endpoint} ("agentdash otel setup [--agent ${telemetryAgentChoice(TELEMETRY_AGENTS.slice(1))}]" prints the settings)`,
        );
      }
      ctx.note('press Ctrl-C to stop');
    }
    // Set once the server is asked to stop: the index build still running then ends as the database closes under it,
    // which is no failure (what was stored stays; the next command reads the rest).
    let stopping = false;
    // a server closed to start another over the homes found says nothing of the build it left
    const retired = new Set<unknown>();
    const reportIndexed = (server: Awaited<ReturnType<typeof start>>, paths: string[], since: number) =>
      void server.indexed.then(async (report) => {
        if (drawn) ctx.io.stderr.write('\r\u001b[2K');
        if (retired.has(server)) return;
        const error = server.indexStatus().error;
        if (error !== null && stopping)
          ctx.note('indexing stopped before it was over: the next command reads the rest');
        else if (error !== null) ctx.note(`indexing failed: ${error}`);
        else if (report && !ctx.json) {
          ctx.note(
            `indexed ${plural(report.files, 'file')}, ${plural(report.sessions, 'session')} in ${formatDuration(ctx.io.now() - since)}` +
              (report.newIssues > 0
                ? `; ${plural(report.newIssues, 'new problem')} in the transcripts (agentdash index --verbose lists them)`
                : ''),
          );
        }
        // As after every other command's refresh: a folder named that holds no agent's transcript said so, and the
        // paths named kept in the database (a later command without PATH reads them, not the samples).
        if (report) await ctx.refreshed(paths, report).catch(() => undefined);
      });
    reportIndexed(server, paths, started);
    // Showing the samples for want of a home: once an agent writes its first transcript (a first install, then a
    // first session), the dashboard is started again over the homes, on the same port (the page reloads itself).
    const lookForHomes =
      ctx.showingSamples && positionals.length === 0 && pushing === undefined
        ? setInterval(
            () =>
              void switchToHomes().catch((error: unknown) => {
                // nothing listens any more (not even the samples could start again): said, and the command ends
                ctx.note(`cannot serve: ${error instanceof Error ? error.message : error}`);
                process.exitCode = 1;
                stopServing?.();
              }),
            HOMES_LOOK_MS,
          )
        : undefined;
    lookForHomes?.unref();
    // the switch under way, which a Ctrl-C meanwhile waits for (it would close the old server, not the new one)
    let switching: Promise<void> | undefined;
    const switchToHomes = () => {
      switching ??= switchOnce().finally(() => {
        switching = undefined;
      });
      return switching;
    };
    const switchOnce = async () => {
      if (stopping) return;
      const homes = await ctx.agentHomes();
      if (homes.length === 0 || stopping) return;
      clearInterval(lookForHomes);
      ctx.note(`transcripts found in ${homes.join(', ')}: the dashboard shows them now, in place of the samples`);
      // the port it listens on: the one asked for, else the one 0 picked (a URL leaves out 80)
      const at = port !== 0 ? port : Number(new URL(server.url).port);
      const samples = paths;
      retired.add(server);
      await server.close();
      if (stopping) return;
      try {
        const since = ctx.io.now();
        ctx.showingSamples = false;
        server = await start(homes, at);
        paths = homes;
        reportIndexed(server, homes, since);
      } catch (error) {
        // the address taken meanwhile, a thread that did not start: the samples again, rather than nothing
        ctx.note(
          `could not start the dashboard over ${homes.join(', ')}: ${error instanceof Error ? error.message : error}`,
        );
        ctx.showingSamples = true;
        server = await start(samples, at);
        reportIndexed(server, samples, ctx.io.now());
      }
    };
    let stopServing: (() => void) | undefined;
    const stopPush = new AbortController();
    if (pushing && pushUrl) void pushing.servePush(ctx, await ctx.openIndex(), pushUrl, paths, stopPush.signal);
    await new Promise<void>((resolve) => {
      const stop = () => {
        stopping = true;
        clearInterval(lookForHomes);
        stopPush.abort();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        // Stop waiting for slow connections after a few seconds.
        setTimeout(resolve, 3000).unref();
        // Stopped before the first refresh was over, or a named folder given transcripts since: kept all the same.
        void Promise.resolve(switching)
          .catch(() => undefined)
          .then(() => ctx.refreshed(paths, undefined))
          .catch(() => undefined)
          .then(() => server.close())
          .finally(resolve);
      };
      stopServing = stop;
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};

/** How often `serve` over the samples looks for an agent's home with transcripts. */
const HOMES_LOOK_MS = 3_000;

/** A listen failure in the user's words: a port in use or not permitted is their setup, not a bug. */
function cannotServe(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new CannotServeError(
        `port ${port} on ${host} is already in use (another agentdash?): choose another with --port N (0 picks a free one)`,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
      return new CannotServeError(`not permitted to listen on ${where}: use a port above 1023`, { cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CannotServeError(`${host} is not an address of this machine: check --host`, { cause: error });
    default:
      return error;
  }
}
