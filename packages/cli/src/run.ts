import { parse } from './args.js';
import { archiveCommand } from './commands/archive.js';
import type { CommandSpec } from './commands/common.js';
import { exportCommand } from './commands/export.js';
import { indexCommand } from './commands/index-cmd.js';
import { schemaCommand } from './commands/schema.js';
import { searchCommand } from './commands/search.js';
import { secretsCommand } from './commands/secrets.js';
import { serveCommand } from './commands/serve.js';
import { sessionsCommand } from './commands/sessions.js';
import { showCommand } from './commands/show.js';
import { statsCommand } from './commands/stats.js';
import { statuslineCommand } from './commands/statusline.js';
import { usageCommand } from './commands/usage.js';
import { Context } from './context.js';
import { classify, ExitCode, UsageError } from './errors.js';
import { type CliIo, colorsFor, processIo } from './io.js';
import type { ErrorJson } from './output/json-types.js';

export const commands: readonly CommandSpec[] = [
  sessionsCommand,
  showCommand,
  statsCommand,
  usageCommand,
  statuslineCommand,
  searchCommand,
  exportCommand,
  secretsCommand,
  schemaCommand,
  indexCommand,
  archiveCommand,
  serveCommand,
];

export const VERSION = '0.1.0';

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `agentdash ${VERSION}: see what AI coding agents actually did (Claude Code transcripts).

Usage: agentdash <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "agentdash <command> --help" for a command's options. Every command refreshes the index first.
Exit codes: 0 ok, 1 internal error (a bug), 2 bad arguments, 3 bad path, 4 unreadable file, 5 unknown session,
6 cannot serve (port in use), 7 index busy (another agentdash process kept it locked).
`;
}

function commandHelp(command: CommandSpec): string {
  return `Usage: ${command.usage}\n\n${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.\n\n${command.help}\n`;
}

/** Run the CLI with these arguments; returns the exit code. Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(topic ? commandHelp(topic) : mainHelp());
    return ExitCode.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((c) => c.name === name);
  let ctx: Context | undefined;
  const wantsJson = rest.includes('--json');
  try {
    if (command === undefined) throw new UsageError(`unknown command "${name}"; run "agentdash --help"`);
    const parsed = parse(rest, command.options);
    if (parsed.values.help === true) {
      io.stdout.write(commandHelp(command));
      return ExitCode.ok;
    }
    ctx = new Context(io, parsed.values);
    await command.run(ctx, parsed.positionals);
    return ExitCode.ok;
  } catch (error) {
    const { code, kind, message } = classify(error);
    const c = colorsFor(io.stderr, io.env);
    if (wantsJson) {
      const out: ErrorJson = { error: { kind, message, exitCode: code } };
      io.stderr.write(`${JSON.stringify(out)}\n`);
    } else {
      io.stderr.write(`${c.red('agentdash:')} ${message.split('\n')[0]}\n`);
    }
    if (code === ExitCode.internal && (ctx?.verbose ?? rest.includes('--verbose')) && error instanceof Error) {
      io.stderr.write(`${error.stack ?? ''}\n`);
    }
    return code;
  } finally {
    ctx?.close();
  }
}
