import type { Session } from '@agentdash/core';
import { type RedactionReport, redactSession } from '@agentdash/core/secrets';
import {
  type ExportAssets,
  type ExportRedaction,
  exportRedaction,
  readExportAssets,
  sessionHtmlChunks,
  streamHtmlChunks,
} from '@agentdash/server';
import {
  envelopeLines,
  envelopeStreamLines,
  jsonLines,
  markdownChunks,
  markdownSourceOfStream,
  redactedParts,
  redactionOfStream,
  sameParts,
  sessionJsonChunks,
  streamsBetter,
} from '@agentdash/server/export-formats';
import { flag, str } from '../args.js';
import { agentsOwnHomes } from '../default-homes.js';
import { UsageError } from '../errors.js';
import type { TextOut } from '../io.js';
import { openFileOutput } from '../output/file-output.js';
import type { ExportJson } from '../output/json-types.js';
import { refusedOutput } from '../output/output-guard.js';
import { terminalOut } from '../output/terminal-out.js';
import { writeChunks } from '../output/write-chunks.js';
import { COMMON_HELP, type CommandSpec, PATHS_HELP, SESSION_HELP, writeJson } from './common.js';
import { resolveSession } from './resolve-session.js';
import { loadPartial } from './show-versions.js';

export { markdownChunks } from '@agentdash/server/export-formats';

/** The session as Markdown: header, then the timeline with subagents nested as quoted sections. */
export async function toMarkdown(session: Session): Promise<string> {
  let text = '';
  for await (const chunk of markdownChunks(session)) text += chunk;
  return text;
}

const formats = ['json', 'envelope', 'markdown', 'html'] as const;
type Format = (typeof formats)[number];

export const exportCommand: CommandSpec = {
  name: 'export',
  usage: 'agentdash export SESSION --format json|envelope|markdown|md|html [-o FILE] [--no-redact] [--partial] [PATH…]',
  summary: 'export one session as JSON, tool-call JSON Lines, Markdown or one self-contained HTML file',
  help: `Formats:
  json       the enriched session (as show --json): every call with its typed result nested
  envelope   JSON Lines, one line per tool call (subagents' included), in file order:
             {"id","tool","success":true,"data":{…}} or {"id","tool","success":false,"error":"…"}
  markdown   a readable transcript: each tool output cut at 20 lines and each diff at 40 (the cut is marked),
             images named, not embedded, and the transcript's problems listed at its end
  html       ONE self-contained page showing the whole session as the dashboard does (tool renderers,
             subagents); it needs no server and no network, so it can be opened from a file or sent to someone

Secrets (API keys and tokens of common providers, cloud keys, private keys, passwords in URLs, .env-style
assignments: see docs/secrets.md) are replaced by [REDACTED:<rule>] in every format; what was redacted and where
is reported on stderr. --no-redact exports the session as it is.

Printed on a terminal, the text's control characters are shown as symbols (␛, ␇), as show does. Markdown shows them
so into a pipe or a file (-o) too, as the dashboard's export does (a reader's cat would run them; tabs and line breaks
are kept); json, envelope and html are written exactly (JSON escapes them).

With --json, standard output holds JSON alone: json and envelope are written there; markdown and html need -o FILE
(a usage error otherwise); with -o FILE, {"output": FILE, "format": F} is printed.

Options:
  -o, --output FILE  write to FILE instead of standard output (- is standard output); never a transcript AgentDash
                     reads, a folder an agent keeps its transcripts in (~/.claude, ~/.codex, …; an Aider
                     repository is yours) or the index database, by whatever name (refused, exit 2)
  --no-redact        keep secrets (the export is for you alone)
  --partial          export the newer partial copy kept of a transcript that lost records on disk (see show
                     --versions), not the last complete version shown by default

${SESSION_HELP}
${PATHS_HELP}

${COMMON_HELP}`,
  options: {
    format: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    'no-redact': { type: 'boolean' },
    partial: { type: 'boolean' },
  },
  async run(ctx, positionals) {
    const given = str(ctx.values, 'format') ?? (ctx.json ? 'json' : undefined);
    // `md`, the file extension most people type, is Markdown
    const format = (given === 'md' ? 'markdown' : given) as Format | undefined;
    if (format === undefined) throw new UsageError(`export needs --format ${formats.join('|')}`);
    if (!formats.includes(format))
      throw new UsageError(`--format must be one of ${formats.join(', ')}, got "${format}"`);
    // `-o -`: standard output, as other tools read it (not a file named "-")
    const named = str(ctx.values, 'output');
    const output = named === '-' ? undefined : named;
    // With --json, standard output is one JSON document: Markdown and HTML can only go to a file.
    if (ctx.json && output === undefined && (format === 'markdown' || format === 'html'))
      throw new UsageError(`--format ${format} is not JSON: with --json, write it to a file (-o FILE)`);
    const redact = !flag(ctx.values, 'no-redact');
    const [arg, ...rest] = positionals;
    const id = await resolveSession(ctx, arg, rest);
    const index = await ctx.openIndex();
    if (output !== undefined) {
      const why = refusedOutput(output, {
        dbPath: ctx.dbPath,
        filesWithInode: (ino) => index.filesWithInode(ino),
        homes: await agentsOwnHomes(ctx.io),
        roots: index.namedRoots(),
      });
      if (why !== undefined) throw new UsageError(`-o ${output}: ${why}`);
    }
    const partial = flag(ctx.values, 'partial');
    const write = async (to: (out: TextOut) => Promise<void>) => {
      if (output === undefined) {
        // On a terminal the export is read, not kept: its text is shown as `show` shows it, controls made visible (an
        // escape in a prompt would clear the screen). Into a pipe or a file, the bytes are the export's, as they are.
        await to(ctx.io.stdout.isTTY === true ? terminalOut(ctx.io.stdout) : ctx.io.stdout);
        return;
      }
      // "wrote FILE" only once the file is closed with no error; a file left half-written is removed.
      const file = await openFileOutput(output);
      try {
        await to(file);
        await file.close();
      } catch (error) {
        file.discard();
        throw error;
      }
    };
    let report: RedactionReport | undefined;
    if (!partial && streamsBetter(index.sessionBytes(id))) {
      // Written as the session is read: a session of hundreds of MB is never held (docs/benchmarks.md).
      // HTML needs the viewer's assets: read them before anything is written.
      const assets = format === 'html' ? await readExportAssets() : undefined;
      const stream = await index.streamSession(id);
      const redaction = redact ? await redactionOfStream(stream) : undefined;
      report = redaction?.report;
      const parts = redaction ? redactedParts(redaction.found) : sameParts;
      const chunks = assets
        ? streamHtmlChunks(stream, parts, index.getSession(id), assets, exportRedaction(redact, report))
        : format === 'json'
          ? withNewline(sessionJsonChunks(stream, parts))
          : format === 'envelope'
            ? envelopeStreamLines(stream.calls(), parts.call)
            : markdownChunks(await markdownSourceOfStream(stream, parts));
      await write((out) => writeChunks(out, chunks));
    } else {
      const loaded = partial ? await loadPartial(ctx, id) : await index.loadSession(id);
      const redacted = redact ? redactSession(loaded) : undefined;
      report = redacted?.report;
      const session = redacted?.session ?? loaded;
      // HTML needs the viewer's assets: read them before anything is written.
      const assets = format === 'html' ? await readExportAssets() : undefined;
      const extras: ExportExtras = {
        summary: index.getSession(id),
        assets,
        redaction: exportRedaction(redact, redacted?.report),
      };
      await write((out) => writeExport(out, format, session, extras));
    }
    if (report && report.total > 0) {
      ctx.io.stderr.write(`agentdash: ${report.summary()}; --no-redact keeps them\n`);
    }
    if (output === undefined) return;
    ctx.io.stderr.write(`agentdash: wrote ${output}\n`);
    if (ctx.json) writeJson(ctx, { output, format } satisfies ExportJson);
  },
};

interface ExportExtras {
  readonly summary: unknown;
  readonly assets: ExportAssets | undefined;
  readonly redaction: ExportRedaction;
}

async function writeExport(out: TextOut, format: Format, session: Session, extras: ExportExtras): Promise<void> {
  // Every format is written in pieces: a session of hundreds of MB is never one string.
  switch (format) {
    case 'json':
      await writeChunks(out, jsonLines(session));
      return;
    case 'envelope':
      await writeChunks(out, envelopeLines(session));
      return;
    case 'markdown':
      await writeChunks(out, markdownChunks(session));
      return;
    case 'html':
      if (!extras.assets) return;
      await writeChunks(out, sessionHtmlChunks(session, extras.summary, extras.assets, extras.redaction));
      return;
    default:
      format satisfies never;
  }
}

async function* withNewline(chunks: AsyncIterable<string>): AsyncGenerator<string, void, undefined> {
  yield* chunks;
  yield '\n';
}
