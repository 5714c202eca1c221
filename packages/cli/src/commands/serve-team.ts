/** `agentdash serve --team`: the team server over PostgreSQL (see docs/team.md). */
import { str } from '../args.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ServeJson } from '../output/json-types.js';
import { writeJson } from './common.js';

export async function serveTeam(
  ctx: Context,
  host: string,
  port: number,
  cannotServe: (error: unknown, host: string, port: number) => unknown,
): Promise<void> {
  const cert = str(ctx.values, 'tls-cert');
  const key = str(ctx.values, 'tls-key');
  if ((cert === undefined) !== (key === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
  const team = await import('@agentdash/team');
  const db = await team.openMigratedTeamDb({
    pg: str(ctx.values, 'pg'),
    pgSchema: str(ctx.values, 'pg-schema'),
    env: ctx.io.env,
  });
  const server = await team
    .startTeamServer({ db, host, port, ...(cert && key ? { tls: { cert, key } } : {}) })
    .catch(async (error: unknown) => {
      await db.close();
      throw cannotServe(error, host, port);
    });
  if (ctx.json) {
    const out: ServeJson = { url: server.url };
    writeJson(ctx, out);
  } else {
    ctx.io.stdout.write(`${ctx.color.bold(server.url)}\n`);
    ctx.note(`team server on PostgreSQL schema ${db.schema}: open ${server.url}?token=<a device or viewer token>`);
    ctx.note('press Ctrl-C to stop');
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      setTimeout(resolve, 3000).unref();
      void server
        .close()
        .then(() => db.close())
        .finally(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
