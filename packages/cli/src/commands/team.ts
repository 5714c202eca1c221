import { str } from '../args.js';
import { UsageError } from '../errors.js';
import { plural } from '../format.js';
import { terminalText } from '../io.js';
import type {
  TeamDeviceJson,
  TeamEraseJson,
  TeamListJson,
  TeamPersonJson,
  TeamRevokeJson,
  TeamViewerJson,
} from '../output/json-types.js';
import type { CommandSpec } from './common.js';
import { writeJson } from './common.js';

export const TEAM_DB_HELP = `  --pg URL         the team database, postgres://user:password@host:port/database (default: $AGENTDASH_PG_URL)
  --pg-schema S    the schema holding AgentDash's tables (default: $AGENTDASH_PG_SCHEMA, else agentdash)`;

const actions = ['add-person', 'add-device', 'add-viewer', 'revoke', 'erase', 'list'] as const;

export const teamCommand: CommandSpec = {
  name: 'team',
  usage:
    'agentdash team add-person NAME | add-device PERSON DEVICE | add-viewer NAME | revoke NAME [--erase] | erase NAME | list  --pg URL',
  summary: 'people, devices and viewers of a team server (on the server machine)',
  help: `Manages who may push to and read a team server (agentdash serve --team), in its PostgreSQL database.
Tokens are shown once; only their SHA-256 is stored. See docs/team.md.

  add-person NAME           a person who pushes sessions (with a new random salt for their hashes)
  add-device PERSON DEVICE  a machine of PERSON: prints its push token (it also reads the dashboard, and sends
                            telemetry: OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <token>")
  add-viewer NAME           a read-only token for someone who only looks
  revoke NAME               PERSON/DEVICE, a viewer, or a person with all their devices: 401 from the next request
                            (their pushed sessions stay; the laptop removes one with agentdash push --forget)
  erase NAME                revoke and remove everything the server holds of PERSON/DEVICE (the sessions it
                            pushed, its telemetry), of a person (their devices, sessions, telemetry, name and
                            salt) or a viewer, with the transcript chunks no one else's session refers to
                            (also: revoke NAME --erase)
  list                      everyone, their devices, when each last pushed (or, sending telemetry only, was
                            last seen) and how many sessions it holds

Options:
${TEAM_DB_HELP}
  --share TIER     add-device: the tier its telemetry sent straight to the team server is stored at
                   (summary, metadata or full; default summary; pushes carry their own tier)
  --json           machine-readable output (see docs/cli-json.md)`,
  options: {
    pg: { type: 'string' },
    'pg-schema': { type: 'string' },
    share: { type: 'string' },
    erase: { type: 'boolean' },
  },
  async run(ctx, positionals) {
    const [action, ...args] = positionals;
    if (!actions.includes(action as (typeof actions)[number])) {
      throw new UsageError(
        action === undefined
          ? `team needs an action: ${actions.join(', ')}`
          : `unknown team action "${action}"; one of ${actions.join(', ')}`,
      );
    }
    const want = action === 'add-device' ? 2 : action === 'list' ? 0 : 1;
    if (args.length !== want) {
      throw new UsageError(
        `team ${action} takes ${want === 0 ? 'no arguments' : want === 1 ? 'a NAME' : 'PERSON DEVICE'}`,
      );
    }
    const share = str(ctx.values, 'share') ?? 'summary';
    if (share !== 'summary' && share !== 'metadata' && share !== 'full') {
      throw new UsageError(`--share takes summary, metadata or full, got "${share}"`);
    }
    if (action !== 'add-device' && str(ctx.values, 'share') !== undefined) {
      throw new UsageError('--share goes with team add-device');
    }
    if (ctx.values.erase === true && action !== 'revoke') throw new UsageError('--erase goes with team revoke');
    const team = await import('@agentdash/team');
    const db = await team.openMigratedTeamDb(
      { pg: str(ctx.values, 'pg'), pgSchema: str(ctx.values, 'pg-schema'), env: ctx.io.env },
      2,
    );
    try {
      const out = ctx.io.stdout;
      if (action === 'add-person') {
        const added: TeamPersonJson = await team.addPerson(db.sql, args[0]!);
        if (ctx.json) writeJson(ctx, added);
        else out.write(`added ${terminalText(added.person)}; add their machines with agentdash team add-device\n`);
      } else if (action === 'add-device') {
        const added: TeamDeviceJson = await team.addDevice(db.sql, args[0]!, args[1]!, share);
        if (ctx.json) writeJson(ctx, added);
        else {
          out.write(`${added.token}\n`);
          ctx.note(
            `the push token of ${added.person}/${added.device}, shown this once: agentdash push URL --token <it>; ` +
              `its telemetry is stored at the ${added.share} tier`,
          );
        }
      } else if (action === 'add-viewer') {
        const added: TeamViewerJson = await team.addViewer(db.sql, args[0]!);
        if (ctx.json) writeJson(ctx, added);
        else {
          out.write(`${added.token}\n`);
          ctx.note(`the read-only token of ${added.viewer}, shown this once`);
        }
      } else if (action === 'erase' || (action === 'revoke' && ctx.values.erase === true)) {
        const { uids: _uids, ...erased } = await team.erase(db.sql, args[0]!);
        const json: TeamEraseJson = erased;
        if (ctx.json) writeJson(ctx, json);
        else {
          out.write(renderErased(erased));
        }
      } else if (action === 'revoke') {
        const revoked: TeamRevokeJson = await team.revoke(db.sql, args[0]!);
        if (ctx.json) writeJson(ctx, revoked);
        else {
          out.write(
            `revoked ${revoked.kind} ${terminalText(revoked.name)}` +
              (revoked.kind === 'person' ? ` and ${plural(revoked.tokens, 'device token')}` : '') +
              '\n',
          );
        }
      } else {
        const listing: TeamListJson = await team.listTeam(db.sql);
        if (ctx.json) writeJson(ctx, listing);
        else out.write(renderListing(listing, team.deviceState));
      }
    } finally {
      await db.close();
    }
  },
};

/** What `team erase` says it removed: `1 session`, `2 sessions`, each count with its noun. */
export function renderErased(erased: TeamEraseJson): string {
  return (
    `erased ${erased.kind} ${terminalText(erased.name)}: ${plural(erased.sessions, 'session')}, ` +
    `${plural(erased.telemetry, 'telemetry record')}, ${plural(erased.chunks, 'transcript chunk')}; ` +
    `${plural(erased.tokens, 'token')} stopped working\n`
  );
}

/** `stateOf`: a device as one phrase (the team package's `deviceState`: when it last pushed, or was last seen). */
function renderListing(
  listing: TeamListJson,
  stateOf: (d: TeamListJson['people'][number]['devices'][number]) => string,
): string {
  const lines: string[] = [];
  for (const p of listing.people) {
    lines.push(`${terminalText(p.name)}${p.revokedAt ? ' (revoked)' : ''}: ${plural(p.sessions, 'session')}`);
    for (const d of p.devices) {
      lines.push(`  ${terminalText(d.name)}: ${stateOf(d)}, ${plural(d.sessions, 'session')}`);
    }
  }
  for (const v of listing.viewers) lines.push(`viewer ${terminalText(v.name)}${v.revokedAt ? ' (revoked)' : ''}`);
  if (lines.length === 0) lines.push('no people or viewers yet: agentdash team add-person NAME');
  return `${lines.join('\n')}\n`;
}
