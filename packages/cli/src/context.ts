import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  defaultClaudeHome,
  defaultPriceTable,
  existingDefaultHomes,
  mergePriceTables,
  type PriceTable,
  parsePriceFile,
} from '@agentdash/core';
import { type AgentIndex, defaultDbPath, openIndex, type RefreshReport } from '@agentdash/index';
import { flag, type Parsed, str } from './args.js';
import { UsageError } from './errors.js';
import { type CliIo, type Colors, colorsFor } from './io.js';
import { renderProgressBar } from './progress-bar.js';

/** Sample sessions bundled with the package, used when there is no Claude home. */
export const SAMPLES_HOME = fileURLToPath(new URL('../samples/claude-home', import.meta.url));

/** What a command gets: IO, colours, flags, and the index (opened lazily). */
export class Context {
  readonly color: Colors;
  readonly errColor: Colors;
  readonly json: boolean;
  readonly verbose: boolean;
  private index: AgentIndex | undefined;
  private priceTable: PriceTable | undefined;
  /** Paths the last refresh covered. */
  scope: readonly string[] = [];

  constructor(
    readonly io: CliIo,
    readonly values: Parsed['values'],
  ) {
    this.color = colorsFor(io.stdout, io.env);
    this.errColor = colorsFor(io.stderr, io.env);
    this.json = flag(values, 'json');
    this.verbose = flag(values, 'verbose');
  }

  get dbPath(): string {
    return str(this.values, 'db') ?? defaultDbPath(this.io.env, this.io.homedir, process.platform);
  }

  /** A notice on stderr (never on stdout, so --json output stays clean). */
  note(message: string): void {
    this.io.stderr.write(`${this.errColor.dim(`agentdash: ${message}`)}\n`);
  }

  /** The built-in price table, overridden by `--prices FILE` (AgentDash's shape or LiteLLM's JSON). */
  get prices(): PriceTable {
    if (this.priceTable) return this.priceTable;
    const file = str(this.values, 'prices');
    if (file === undefined) {
      this.priceTable = defaultPriceTable;
      return this.priceTable;
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`--prices ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { table, issues } = parsePriceFile(json, new Date(this.io.now()).toISOString().slice(0, 10));
    for (const issue of issues) this.note(`--prices ${file}: ${issue.model || 'file'}: ${issue.message} (skipped)`);
    if (Object.keys(table.models).length === 0) throw new UsageError(`--prices ${file}: no model prices in it`);
    this.priceTable = mergePriceTables(defaultPriceTable, { ...table, source: file });
    return this.priceTable;
  }

  openIndex(): AgentIndex {
    if (!this.index) {
      this.index = openIndex({
        dbPath: this.dbPath,
        onWarning: (m) => this.note(m),
        now: this.io.now,
        prices: this.prices,
      });
    }
    return this.index;
  }

  close(): void {
    this.index?.close();
    this.index = undefined;
  }

  /**
   * PATH arguments, or the default: every agent home that holds transcripts (`$CLAUDE_CONFIG_DIR` or `~/.claude`,
   * `$CODEX_HOME` or `~/.codex`, `~/.gemini`); when none does, the bundled samples (with a note).
   */
  async resolvePaths(positionals: readonly string[]): Promise<string[]> {
    if (positionals.length > 0) return [...positionals];
    const claudeHome = defaultClaudeHome(this.io.env, this.io.homedir);
    const homes: string[] = [];
    // A home whose transcripts the agent has all deleted is still the user's: its sessions are in the archive.
    if (hasTranscripts(join(claudeHome, 'projects')) || this.openIndex().hasArchivedFilesUnder(claudeHome)) {
      homes.push(claudeHome);
    }
    for (const { agent, home } of existingDefaultHomes(this.io.env, this.io.homedir)) {
      if (home === claudeHome) continue;
      if ((await agent.recognizes(home)) || this.openIndex().hasArchivedFilesUnder(home)) homes.push(home);
    }
    if (homes.length > 0) return homes;
    this.note(
      `no agent transcripts in ${claudeHome} or the other agents' homes; showing the bundled sample sessions (${SAMPLES_HOME})`,
    );
    return [SAMPLES_HOME];
  }

  /** Bring the index up to date for these paths, with a progress bar on a TTY, and report malformed lines. */
  async refresh(paths: readonly string[]): Promise<RefreshReport> {
    const index = this.openIndex();
    this.scope = paths;
    // A bar only for a person watching a terminal: never with --json, never into a pipe or a log file.
    const showProgress = this.io.stderr.isTTY === true && !this.json && !flag(this.values, 'no-progress');
    let drawn = false;
    let lastDraw = 0;
    const started = this.io.now();
    const report = await index.refresh(paths, {
      ...(flag(this.values, 'no-archive') ? { archive: false } : {}),
      onProgress: (progress) => {
        if (!showProgress) return;
        const now = this.io.now();
        if (progress.done < progress.total && now - lastDraw < 80) return;
        lastDraw = now;
        this.io.stderr.write(`\r\u001b[2K${renderProgressBar(progress, now - started)}`);
        drawn = true;
      },
    });
    if (drawn) this.io.stderr.write('\r\u001b[2K');
    if (this.verbose) {
      for (const issue of [...index.refreshProblems(), ...index.issues({ paths })]) {
        this.io.stderr.write(`${issue.file}:${issue.line}: ${issue.code}: ${issue.message}\n`);
      }
    } else if (report.issues > 0 && !this.json) {
      this.note(
        `${report.issues} problem${report.issues === 1 ? '' : 's'} in the transcripts (malformed lines, unknown records, unreadable files); --verbose lists them`,
      );
    }
    return report;
  }
}

/** Whether a projects folder holds at least one transcript (`projects/<project>/*.jsonl`). */
function hasTranscripts(projectsDir: string): boolean {
  if (!existsSync(projectsDir)) return false;
  const entries = readdirSync(projectsDir, { withFileTypes: true });
  return entries.some(
    (e) => e.isDirectory() && readdirSync(join(projectsDir, e.name)).some((name) => name.endsWith('.jsonl')),
  );
}
