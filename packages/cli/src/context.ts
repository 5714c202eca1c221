import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { aiderHistoriesIn, defaultClaudeHome } from '@agentdash/core/base';
import type { PriceTable } from '@agentdash/core/usage';
import type {
  AgentIndex,
  MeasuredSession,
  MeasuredToolRun,
  RefreshProgress,
  RefreshReport,
  SessionFilter,
  SessionSummary,
} from '@agentdash/index';
import { defaultDbPath, type StoredOutput, WarmIndex } from '@agentdash/index/warm';
import type { FolderWithoutTranscripts } from '@agentdash/server/api-types';
import { flag, type Parsed, str } from './args.js';
import { buildId } from './build-id.js';
import { checkReadable, oncePerFolder } from './commands/check-paths.js';
import { agentHomesOf, isSamples, SAMPLES_HOME } from './default-homes.js';
import { issueText } from './format.js';
import { type CliIo, type Colors, colorsFor, outputWidth, terminalText } from './io.js';
import { foldersWithoutTranscripts, type IndexLookup, keepNamedRoots } from './named-paths.js';
import { digest, loadPriceTable } from './prices-file.js';
import { renderProgressBar } from './progress-bar.js';

/**
 * What a command gets: IO, colours, flags, and the index (opened lazily). A command on a warm index is answered
 * through a light connection (`WarmIndex`): the full index, with the parsers behind it, is loaded only when
 * something changed or an answer is not stored yet.
 */
export class Context {
  readonly color: Colors;
  readonly errColor: Colors;
  readonly json: boolean;
  readonly verbose: boolean;
  private index: AgentIndex | undefined;
  private warmIndex: WarmIndex | undefined;
  private priceTable: PriceTable | undefined;
  /** Paths the last refresh covered. */
  scope: readonly string[] = [];
  /** The last `resolvePaths` fell back to the bundled sample sessions. */
  showingSamples = false;
  /** The folders named the last refresh found no transcript in, with the warning said of each (`serve` shows them). */
  noTranscripts: readonly FolderWithoutTranscripts[] | undefined;
  /** PATH arguments as the user named them (not the default homes): an empty answer over one of them is explained. */
  private named: readonly string[] = [];

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

  /** The terminal columns a table may take (`outputWidth`). */
  get width(): number | undefined {
    return outputWidth(this.io);
  }

  /** A notice on stderr (never on stdout, so --json output stays clean); one terminal-safe line. */
  note(message: string): void {
    this.io.stderr.write(`${this.errColor.dim(`agentdash: ${terminalText(message)}`)}\n`);
  }

  /**
   * The built-in price table, overridden by `--prices FILE` (AgentDash's shape or LiteLLM's JSON). Read once the
   * index is open (`openIndex` loads it) or `loadedPrices` has loaded it.
   */
  get prices(): PriceTable {
    if (this.priceTable === undefined) throw new Error('prices read before the index was opened');
    return this.priceTable;
  }

  /** The price table, loaded now when the index is not open yet (`prices` can be read after). */
  async loadedPrices(): Promise<PriceTable> {
    this.priceTable ??= await this.loadPrices();
    return this.priceTable;
  }

  private loadPrices(): Promise<PriceTable> {
    return loadPriceTable(str(this.values, 'prices'), this.io.now(), (message) => this.note(message));
  }

  /**
   * What tells this run's price table apart in a stored answer's key: the built-in table is this build's (the key's
   * build id tells it apart), a `--prices` file's table is digested. Loads the table (`prices` can be read after).
   */
  async pricesKey(): Promise<string> {
    const prices = await this.loadedPrices();
    return str(this.values, 'prices') === undefined ? 'built-in' : digest(JSON.stringify(prices));
  }

  /** The index, opened (created, migrated) on first use. */
  async openIndex(): Promise<AgentIndex> {
    if (!this.index) {
      const prices = this.priceTable ?? (await this.loadPrices());
      this.priceTable = prices;
      const { openIndex } = await import('@agentdash/index');
      this.index ??= openIndex({
        dbPath: this.dbPath,
        onWarning: (m) => this.note(m),
        now: this.io.now,
        prices,
        // `index --rebuild`: everything derived dropped and read again
        ...(flag(this.values, 'rebuild') ? { rebuild: true } : {}),
      });
    }
    return this.index;
  }

  /** The light connection for the warm path; undefined while there is no usable index file. */
  private warm(): WarmIndex | undefined {
    this.warmIndex ??= WarmIndex.open(this.dbPath);
    return this.warmIndex;
  }

  /**
   * An answer of the index that depends only on what is indexed (not on the clock): stored once computed, and
   * given back while nothing has been indexed since, to this build. `question` names it (command and filter) exactly.
   */
  async answer<T>(question: string, compute: (index: AgentIndex) => T): Promise<T> {
    // Answered by this build: another one's (before an upgrade) is computed again.
    const key = `${buildId()} ${question}`;
    const stored = this.warm()?.answer<T>(key);
    if (stored !== undefined) return stored;
    const index = await this.openIndex();
    const warm = this.warm();
    const generation = warm?.generation();
    const value = compute(index);
    if (warm !== undefined && generation !== undefined) warm.saveAnswer(key, generation, value);
    return value;
  }

  /**
   * `answer` for a command's whole output: kept compressed (a large text, read back and written out without being
   * parsed or even decoded), given back as its UTF-8 bytes to write out (`writeStored`); one that cannot be read
   * (damaged) is computed again.
   * `compute` gives the text and whether it may be kept (an answer that depends on the clock or on telemetry, which is
   * not indexed, may not).
   */
  async answerOutput(
    question: string,
    compute: () => Promise<{ text: string; keep: boolean }>,
  ): Promise<string | StoredOutput> {
    const key = `${buildId()} ${question}`;
    const warm = this.warm();
    const stored = warm?.output(key);
    if (stored !== undefined) return stored;
    const generation = warm?.generation();
    const { text, keep } = await compute();
    if (keep && warm !== undefined && generation !== undefined) warm.saveOutput(key, generation, text);
    return text;
  }

  /**
   * The tool runs the agents' telemetry measured (none unless `serve` received telemetry): when the light connection
   * sees none, the full index is not opened for them.
   */
  async measuredToolRuns(): Promise<MeasuredToolRun[]> {
    if (this.warm()?.hasMeasuredToolRuns() === false) return [];
    return (await this.openIndex()).telemetry.measuredToolRuns();
  }

  /**
   * An answer through the light connection when this run did not open the full index (nothing changed), else (or
   * when the light connection cannot tell now) from the full index.
   */
  private async lightOrFull<T>(light: (warm: WarmIndex) => T | undefined, full: (index: AgentIndex) => T): Promise<T> {
    if (this.index === undefined) {
      const warm = this.warm();
      const answer = warm === undefined ? undefined : light(warm);
      if (answer !== undefined) return answer;
    }
    return full(await this.openIndex());
  }

  /** The sessions the filter selects, after `refresh`. */
  async listSessions(filter: SessionFilter): Promise<SessionSummary[]> {
    const prices = await this.loadedPrices();
    return this.lightOrFull(
      (warm) => warm.listSessions(filter, prices, this.io.now),
      (index) => index.listSessions(filter),
    );
  }

  /** Every session id the index holds: what a listed session's shortest reference must differ from. */
  sessionIds(): Promise<string[]> {
    return this.lightOrFull(
      (warm) => warm.sessionIds(),
      (index) => index.sessionIds(),
    );
  }

  /** What the agents' telemetry measured per session (none unless `serve` received telemetry), as `listSessions`. */
  measuredBySession(): Promise<Map<string, MeasuredSession>> {
    return this.lightOrFull(
      (warm) => warm.measuredBySession(),
      (index) => index.telemetry.measuredBySession(),
    );
  }

  /** Whether refreshes archive transcript bytes (the stored setting). */
  async archiving(): Promise<boolean> {
    return this.warm()?.settings.archiving() ?? (await this.openIndex()).archiving();
  }

  /** True the first time it is called with this key on this database (for one-time notices). */
  async firstTime(key: string): Promise<boolean> {
    try {
      const warm = this.warm();
      if (warm !== undefined) return warm.settings.firstTime(key);
    } catch {
      // The light connection does not wait for another process's write lock; the full index does.
    }
    return (await this.openIndex()).firstTime(key);
  }

  close(): void {
    this.warmIndex?.close();
    this.warmIndex = undefined;
    this.index?.close();
    this.index = undefined;
  }

  /**
   * PATH arguments, or the default: every agent home that holds transcripts (`$CLAUDE_CONFIG_DIR` or `~/.claude`,
   * `$CODEX_HOME` or `~/.codex`, `$GEMINI_CLI_HOME/.gemini` or `~/.gemini`, `$COPILOT_HOME` or `~/.copilot`, `~/.qwen`); when none does, the
   * paths once named to build the index (`namedRoots`), else the bundled samples (a note; none if `samples: false`).
   */
  async resolvePaths(positionals: readonly string[], { samples = true } = {}): Promise<string[]> {
    if (positionals.length > 0) {
      checkReadable(positionals); // what a refresh would read as empty (a folder it cannot list, a FIFO): exit 4
      const given = oncePerFolder(positionals);
      this.named = given;
      return given;
    }
    const claudeHome = defaultClaudeHome(this.io.env, this.io.homedir);
    const homes = await this.agentHomes();
    // Aider writes into the repository: the histories in the folders the indexed sessions ran in (known from the
    // last refresh, so one found by this run's is read from the next run on).
    if (homes.length > 0) {
      const projects = await this.answer(
        `projects ${JSON.stringify(homes)}`,
        (index) => index.sessionFacets({ paths: homes }).projects,
      );
      const covered = (path: string) => homes.some((home) => path.startsWith(`${home}${sep}`));
      return [...homes, ...aiderHistoriesIn(projects).filter((path) => !covered(path))];
    }
    // A database built from named paths (a backup, `--db` of another machine's homes): those paths, still on disk
    // or in the archive, and never the samples written into it.
    const named: string[] = [];
    for (const path of this.warm()?.namedRoots() ?? (await this.openIndex()).namedRoots()) {
      if (isSamples(path)) continue;
      if (existsSync(path) || (await this.hasArchivedFilesUnder(path))) named.push(path);
    }
    if (named.length > 0) {
      this.note(
        `no agent transcripts in ${claudeHome} or the other agents' homes; reading the paths ${this.dbPath} was built from: ${named.join(', ')}`,
      );
      return named;
    }
    if (!samples) return []; // a push: nothing, rather than the samples
    this.showingSamples = true;
    this.note(
      `no agent transcripts in ${claudeHome} or the other agents' homes; showing the bundled sample sessions (${SAMPLES_HOME})`,
    );
    return [SAMPLES_HOME];
  }

  /**
   * The agents' homes that hold transcripts, or whose transcripts the archive keeps (a home whose transcripts the
   * agent has all deleted is still the user's): Claude Code's first, then the others the registry knows.
   */
  agentHomes(): Promise<string[]> {
    return agentHomesOf(this.io, (home) => this.hasArchivedFilesUnder(home));
  }

  /** Whether the archive holds files under this home: asked through the light connection when there is one. */
  async hasArchivedFilesUnder(home: string): Promise<boolean> {
    return this.warm()?.hasArchivedFilesUnder(home) ?? (await this.openIndex()).hasArchivedFilesUnder(home);
  }

  /**
   * Bring the index up to date for these paths, with a progress bar on a TTY, and report malformed lines. While
   * another process builds the index (a cold `serve` of a large home), a reading command answers at once from what
   * it has committed, with a note that the answer is partial; `wait` (the `index` command) reads everything instead.
   */
  async refresh(paths: readonly string[], { wait = false }: { readonly wait?: boolean } = {}): Promise<RefreshReport> {
    this.scope = paths;
    // A --prices file is checked on every run, answered from a stored answer or not.
    if (this.priceTable === undefined && str(this.values, 'prices') !== undefined) {
      this.priceTable = await this.loadPrices();
    }
    // A bar only for a person watching a terminal: never with --json, never into a pipe or a log file.
    const showProgress = this.io.stderr.isTTY === true && !this.json && !flag(this.values, 'no-progress');
    let drawn = false;
    let lastDraw = 0;
    const started = this.io.now();
    const options = {
      ...(flag(this.values, 'no-archive') ? { archive: false } : {}),
      freshnessRecord: true,
      onProgress: (progress: RefreshProgress) => {
        // a refresh done before any bar was drawn (nothing to read: a warm run) draws none; a flash of a full bar
        // said nothing
        if (!showProgress || (!drawn && progress.done >= progress.total)) return;
        const now = this.io.now();
        if (progress.done < progress.total && now - lastDraw < 80) return;
        lastDraw = now;
        this.io.stderr.write(`\r\u001b[2K${renderProgressBar(progress, now - started)}`);
        drawn = true;
      },
    };
    // Nothing changed since the last refresh of these paths: its report, from one pass of stats. (--verbose lists
    // every stored problem, through the full index.) When only some files grew, only their folders are read.
    const checked = this.verbose || flag(this.values, 'rebuild') ? undefined : this.warm()?.check(paths, options);
    if (checked?.kind === 'fresh') {
      if (drawn) this.io.stderr.write('\r\u001b[2K');
      await this.refreshed(paths, checked.report);
      return checked.report;
    }
    const index = await this.openIndex();
    const report = await index.refresh(paths, {
      ...options,
      ...(checked?.kind === 'changed' ? { changedFiles: checked.files } : {}),
      ...(wait ? {} : { partialWhileBuilding: true }),
    });
    if (drawn) this.io.stderr.write('\r\u001b[2K');
    if (report.partial !== undefined) {
      const { filesDone, filesTotal } = report.partial;
      this.note(
        `index is being built by another process: ${filesDone} of ${filesTotal} files so far; this answer covers only those`,
      );
      return report;
    }
    if (this.verbose) {
      for (const issue of [...index.refreshProblems(), ...index.issues({ paths })]) {
        this.io.stderr.write(`${issueText(issue)}\n`);
      }
    } else if (report.newIssues > 0 && !this.json) {
      // Quiet by default: only problems this run found are announced (`agentdash index` reports them all).
      this.note(
        `${report.newIssues} new problem${report.newIssues === 1 ? '' : 's'} in the transcripts (malformed lines, unknown records, unreadable files, sessions without their main file); --verbose lists them`,
      );
    } else if (index.refreshProblems().length > 0 && !this.json) {
      // Loaded with the full index already: this runs after a refresh only.
      const { isPartlySearched } = await import('@agentdash/core');
      const problems = index.refreshProblems();
      // A folder looked into only in part is said as it is; it does not change while the folder does not.
      for (const issue of problems.filter(isPartlySearched)) this.note(`${issue.file}: ${issue.message}`);
      // An unreadable file or folder may hide transcripts: no command can tell that nothing changed behind it.
      const n = problems.filter((issue) => !isPartlySearched(issue)).length;
      if (n > 0)
        this.note(
          `${n} file${n === 1 ? '' : 's'} or folder${n === 1 ? '' : 's'} cannot be read, so each command looks at every transcript again; --verbose lists ${n === 1 ? 'it' : 'them'}`,
        );
    }
    await this.refreshed(paths, report);
    return report;
  }

  /**
   * What follows every refresh of `resolvePaths`' paths, this one's or one run elsewhere (`serve` indexes in the
   * background through its server): a named folder without transcripts said so, and the named paths that gave the
   * index transcripts kept in it (named-paths.ts). A refresh cut short (`serve` stopped first) has no report.
   */
  async refreshed(paths: readonly string[], report: RefreshReport | undefined): Promise<void> {
    const named = { named: this.named, note: (message: string) => this.note(message) };
    if (report !== undefined) this.noTranscripts = await foldersWithoutTranscripts(named, paths, report, this.lookup);
    await keepNamedRoots(named, paths, report, this.lookup);
  }

  /** The index as named-paths.ts asks it: through the light connection where it can. */
  private readonly lookup: IndexLookup = {
    namedRoots: () => this.warm()?.namedRoots(),
    openIndex: () => this.openIndex(),
  };
}
