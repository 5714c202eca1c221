import { agentLabels } from '@agentdash/core/base';
import { parse } from './args.js';
import type { CommandSpec } from './commands/common.js';
import type { Context } from './context.js';
import { classify, ExitCode, UsageError } from './errors.js';
import { type CliIo, colorsFor, outputWidth, processIo, terminalText } from './io.js';
import type { ErrorJson } from './output/json-types.js';
import { wrapToWidth } from './wrap.js';

/**
 * Each command's module, loaded only when that command runs (a command on a warm index loads its own few modules,
 * not the parser, the server or the other commands'). In the order the help lists them.
 */
const loaders: Readonly<Record<string, () => Promise<CommandSpec>>> = {
  sessions: async () => (await import('./commands/sessions.js')).sessionsCommand,
  show: async () => (await import('./commands/show.js')).showCommand,
  stats: async () => (await import('./commands/stats.js')).statsCommand,
  usage: async () => (await import('./commands/usage.js')).usageCommand,
  statusline: async () => (await import('./commands/statusline.js')).statuslineCommand,
  search: async () => (await import('./commands/search.js')).searchCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  secrets: async () => (await import('./commands/secrets.js')).secretsCommand,
  schema: async () => (await import('./commands/schema.js')).schemaCommand,
  index: async () => (await import('./commands/index-cmd.js')).indexCommand,
  archive: async () => (await import('./commands/archive.js')).archiveCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  otel: async () => (await import('./commands/otel.js')).otelCommand,
  push: async () => (await import('./commands/push.js')).pushCommand,
  team: async () => (await import('./commands/team.js')).teamCommand,
};

/** The command of this name, loaded; undefined for an unknown name. */
function loadCommand(name: string): Promise<CommandSpec> | undefined {
  return Object.hasOwn(loaders, name) ? loaders[name]?.() : undefined;
}

export const VERSION = '0.1.0';

async function mainHelp(): Promise<string> {
  const commands = await Promise.all(Object.values(loaders).map((load) => load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return `agentdash ${VERSION}: what AI coding agents actually did, from ${agentLabels()} transcripts.

Usage: agentdash <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "agentdash <command> --help" for a command's options. Every command refreshes the index first.
Exit codes: 0 ok, 1 internal error (a bug), 2 bad arguments, 3 bad path, 4 unreadable file, 5 unknown session,
6 cannot serve (port in use), 7 index busy (another agentdash process kept it locked), 8 team server or database
unreachable, 9 unknown team person/device/viewer, 10 duplicate team name, 11 team token refused, 12 push rejected,
13 a native addon this Node.js cannot load (built for another Node.js version: run \`npm rebuild\`), 14 the index
file is damaged (\`agentdash index --rebuild\` mends it).
`;
}

function commandHelp(command: CommandSpec): string {
  return `Usage: ${command.usage}\n\n${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.\n\n${command.help}\n`;
}

/**
 * The arguments with the command first: options written before it (`agentdash --json sessions`, `--db F stats`) go
 * after it, where the command's parser reads them. Help and version asked for first stay first.
 */
function commandFirst(argv: readonly string[]): readonly string[] {
  const first = argv[0];
  if (first === undefined || !first.startsWith('-') || ['--help', '-h', '--version', '-V'].includes(first)) return argv;
  const at = argv.findIndex((arg) => Object.hasOwn(loaders, arg));
  return at < 0 ? argv : [argv[at] as string, ...argv.slice(0, at), ...argv.slice(at + 1)];
}

/** Run the CLI with these arguments; returns the exit code. Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = commandFirst(argv);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] !== undefined ? await loadCommand(rest[0]) : undefined;
    io.stdout.write(wrapToWidth(topic ? commandHelp(topic) : await mainHelp(), outputWidth(io)));
    return ExitCode.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  let ctx: Context | undefined;
  const wantsJson = asksJson(argv);
  try {
    const command = await loadCommand(name);
    if (command === undefined) {
      throw new UsageError(
        name.startsWith('-')
          ? `"${name}" is an option, and no command is named: agentdash <command> [options]; run "agentdash --help"`
          : `unknown command "${name}"; run "agentdash --help"`,
      );
    }
    const parsed = parse(rest, command.options);
    if (parsed.values.help === true) {
      io.stdout.write(wrapToWidth(commandHelp(command), outputWidth(io)));
      return ExitCode.ok;
    }
    const { Context } = await import('./context.js');
    ctx = new Context(io, parsed.values);
    await command.run(ctx, parsed.positionals);
    return ExitCode.ok;
  } catch (error) {
    const verbose = ctx?.verbose ?? rest.includes('--verbose');
    // SQLite's word of a damaged index file names the file and what mends it (the module is loaded with the context)
    const explained = ctx && (await import('@agentdash/index/warm')).explainDamage(ctx.dbPath, error);
    return reportError(io, explained ?? error, { json: wantsJson, verbose });
  } finally {
    ctx?.close();
  }
}

/** Whether the arguments ask for JSON: the command's name may be the mistake (`agentdash --json`), or `--json=false`. */
export const asksJson = (argv: readonly string[]): boolean =>
  argv.some((a) => a === '--json' || a.startsWith('--json='));

/**
 * An error on stderr as every command says one: a line (with `json`, the `ErrorJson` document), an internal error's
 * stack with `verbose`; returns its exit code.
 */
export function reportError(
  io: Pick<CliIo, 'stderr' | 'env'>,
  error: unknown,
  options: { readonly json: boolean; readonly verbose: boolean },
): number {
  const { code, kind, message, candidates } = classify(error);
  if (options.json) {
    const out: ErrorJson = { error: { kind, message, exitCode: code, ...(candidates && { candidates }) } };
    io.stderr.write(`${JSON.stringify(out)}\n`);
  } else {
    io.stderr.write(
      `${colorsFor(io.stderr, io.env).red('agentdash:')} ${terminalText(message.split('\n')[0] ?? '')}\n`,
    );
  }
  if (code === ExitCode.internal && options.verbose && error instanceof Error)
    io.stderr.write(`${error.stack ?? ''}\n`);
  return code;
}
