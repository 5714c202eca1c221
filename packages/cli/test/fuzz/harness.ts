/**
 * The fuzzer: real transcripts with seeded mutations (one case = one mutated line), checked through every layer.
 * core: `streamRecords` and `loadSession` never throw, every untouched line is a record at its exact line, every
 * mutated line is a record or an issue at its line. index + CLI + API: every command succeeds and no dashboard route
 * fails on the fuzzed home.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFiles, groupSessions, loadSession, streamRecords } from '@agentdash/core';
import { openIndex } from '@agentdash/index';
import { createApp } from '@agentdash/server';
import { type MutationClass, mutateLine, mutationClasses } from '../../../../test/fuzz/mutate.js';
import { createPrng } from '../../../../test/prng.js';
import { SAMPLES_HOME } from '../../src/default-homes.js';
import type { CliIo } from '../../src/io.js';
import { run } from '../../src/run.js';

export interface FuzzOptions {
  readonly seed: number;
  /** Mutated lines to produce in all. */
  readonly cases: number;
  /** Mutated lines per fuzzed file (default 12). */
  readonly perFile?: number;
  /** Fuzzed files per home the CLI commands run over (default 40). */
  readonly filesPerHome?: number;
  /** A step slower than this is reported as a hang (default 60 s). */
  readonly hangMs?: number;
  /**
   * Also mutate the real transcripts of `../shared` (the corpus of every client version and the wild set) when it is
   * there (default true), not only the bundled samples.
   */
  readonly realSources?: boolean;
}

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly files: number;
  readonly commands: number;
  readonly byClass: Record<string, number>;
  /** Exceptions from functions that must never throw, and commands that did not exit 0. */
  readonly crashes: string[];
  readonly hangs: string[];
  /** Untouched lines that did not come back as a record at their line. */
  readonly lostGoodLines: string[];
  /** Mutated lines with neither a record nor an issue at their line. */
  readonly unreportedBadLines: string[];
  readonly goodLines: number;
  readonly badLinesReported: number;
  /** Where the mutated files came from: files of each source set. */
  readonly sources: Record<string, number>;
  /** Time spent per layer (for the `npm run fuzz` report; never asserted). */
  readonly ms: { readonly core: number; readonly commands: number };
}

interface SourceFile {
  readonly name: string;
  readonly lines: string[];
}

function sampleFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(join(SAMPLES_HOME, 'projects'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    const lines = readFileSync(join(entry.parentPath, entry.name), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length > 0) out.push({ name: entry.name, lines });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const shared = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../shared');
/** Real files larger than this are left out: each case rewrites and rereads its whole file. */
const MAX_REAL_BYTES = 1024 * 1024;

/**
 * The real transcripts of `../shared` (corpus/<version>/claude-home and wild/claude-home), by set, each reduced to the
 * lines core reads as records: a real file may hold lines that are broken already, and those are no good lines.
 */
async function realFiles(): Promise<Record<string, SourceFile[]>> {
  const sets: Record<string, string> = {};
  const corpus = join(shared, 'corpus');
  if (existsSync(corpus)) {
    for (const version of readdirSync(corpus).sort()) {
      const home = join(corpus, version, 'claude-home', 'projects');
      if (existsSync(home)) sets[`corpus ${version}`] = home;
    }
  }
  if (existsSync(join(shared, 'wild/claude-home/projects'))) sets.wild = join(shared, 'wild/claude-home/projects');
  const out: Record<string, SourceFile[]> = {};
  for (const [set, dir] of Object.entries(sets)) {
    const files: SourceFile[] = [];
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const path = join(entry.parentPath, entry.name);
      if (statSync(path).size > MAX_REAL_BYTES) continue;
      const records = new Set<number>();
      await streamRecords(path, (event) => {
        if (event.kind === 'record') records.add(event.record.loc.line);
      });
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l, i) => records.has(i + 1) && l.trim() !== '');
      if (lines.length > 0) files.push({ name: entry.name, lines });
    }
    out[set] = files.sort((a, b) => a.name.localeCompare(b.name));
  }
  return out;
}

function message(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function silentIo(home: string): CliIo {
  return {
    stdout: { write: () => true, isTTY: false, columns: 120 },
    stderr: { write: () => true, isTTY: false },
    env: { CLAUDE_CONFIG_DIR: home },
    homedir: home,
    now: Date.now,
  };
}

/** Run the fuzzer; never throws for what it finds (that is the report). */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const prng = createPrng(options.seed);
  const perFile = options.perFile ?? 12;
  const filesPerHome = options.filesPerHome ?? 40;
  const hangMs = options.hangMs ?? 60_000;
  // Each fuzzed file draws a source set first (samples, each corpus version, wild), then a file of it, so every
  // set is fuzzed whatever its number of files.
  const sets: Record<string, SourceFile[]> = {
    samples: sampleFiles(),
    ...(options.realSources === false ? {} : await realFiles()),
  };
  const setNames = Object.keys(sets).filter((k) => (sets[k]?.length ?? 0) > 0);
  const root = mkdtempSync(join(tmpdir(), 'agentdash-fuzz-'));
  const report = {
    seed: options.seed,
    cases: 0,
    files: 0,
    commands: 0,
    byClass: {} as Record<string, number>,
    crashes: [] as string[],
    hangs: [] as string[],
    lostGoodLines: [] as string[],
    unreportedBadLines: [] as string[],
    goodLines: 0,
    badLinesReported: 0,
    sources: {} as Record<string, number>,
    ms: { core: 0, commands: 0 },
  };
  const timed = async <T>(label: string, step: () => Promise<T>): Promise<T | undefined> => {
    const started = performance.now();
    try {
      return await step();
    } catch (error) {
      report.crashes.push(`${label}: ${message(error)}`);
      return undefined;
    } finally {
      const took = performance.now() - started;
      if (took > hangMs) report.hangs.push(`${label}: ${Math.round(took)} ms`);
    }
  };

  try {
    let home = '';
    let homeFiles = 0;
    let homeNo = 0;
    const runCommands = async () => {
      if (homeFiles === 0) return;
      const started = performance.now();
      const db = join(root, `index-${homeNo}.sqlite`);
      const io = silentIo(home);
      const sessions: string[] = [];
      for (const args of [
        ['index', home],
        ['sessions', home, '--json'],
        ['stats', home, '--json'],
        ['search', 'the', home],
      ]) {
        const code = await timed(`agentdash ${args[0]} (home ${homeNo})`, () => run([...args, '--db', db], io));
        report.commands += 1;
        if (code !== undefined && code !== 0)
          report.crashes.push(`agentdash ${args[0]} (home ${homeNo}) exited ${code}`);
      }
      // Session references as the CLI prints them (an id, or `<id>@<folder>` when the id is in several folders).
      const listed = openIndex({ dbPath: db });
      try {
        for (const summary of listed.listSessions({ paths: [home] })) sessions.push(summary.ref);
      } finally {
        listed.close();
      }
      for (const id of sessions.slice(0, 4)) {
        for (const args of [
          ['show', id, home],
          ['export', id, home, '--format', 'markdown'],
        ]) {
          const code = await timed(`agentdash ${args[0]} ${id}`, () => run([...args, '--db', db], io));
          report.commands += 1;
          if (code !== undefined && code !== 0) report.crashes.push(`agentdash ${args.join(' ')} exited ${code}`);
        }
      }
      // The dashboard API over the same index: no route may fail on a fuzzed session.
      const index = openIndex({ dbPath: db });
      try {
        const app = createApp({ index, paths: [home], host: '127.0.0.1', port: 4317 });
        const routes = ['/api/sessions', '/api/stats', '/api/calls', '/api/sessions?q=the'];
        for (const id of sessions.slice(0, 4)) {
          const ref = encodeURIComponent(id);
          routes.push(`/api/sessions/${ref}`, `/api/sessions/${ref}/events?limit=200`, `/api/sessions/${ref}/issues`);
        }
        for (const route of routes) {
          const res = await timed(`GET ${route}`, async () =>
            app.request(route, { headers: { host: '127.0.0.1:4317' } }),
          );
          report.commands += 1;
          if (res !== undefined && res.status >= 500)
            report.crashes.push(`GET ${route} (home ${homeNo}): ${res.status}`);
        }
      } finally {
        index.close();
      }
      report.ms.commands += performance.now() - started;
    };

    while (report.cases < options.cases) {
      if (homeFiles === 0 || homeFiles >= filesPerHome) {
        await runCommands();
        homeNo += 1;
        homeFiles = 0;
        home = join(root, `home-${homeNo}`);
      }
      const set = prng.pick(setNames);
      const source = prng.pick(sets[set] ?? []);
      report.sources[set] = (report.sources[set] ?? 0) + 1;
      const lines: Buffer[] = [];
      const expectation: ('good' | 'bad')[] = [];
      const mutate = new Map<number, MutationClass>();
      for (let i = 0; i < perFile && report.cases + mutate.size < options.cases; i += 1) {
        mutate.set(prng.int(source.lines.length), prng.pick(mutationClasses));
      }
      source.lines.forEach((line, i) => {
        const kind = mutate.get(i);
        if (kind === undefined) {
          lines.push(Buffer.from(line));
          expectation.push('good');
          return;
        }
        report.byClass[kind] = (report.byClass[kind] ?? 0) + 1;
        report.cases += 1;
        if (kind === 'duplicate') {
          lines.push(Buffer.from(line), Buffer.from(line));
          expectation.push('good', 'bad');
          return;
        }
        lines.push(mutateLine(line, kind, prng));
        expectation.push('bad');
      });
      // A fresh session id per fuzzed file, so files do not merge into one session by accident.
      const fileNo = report.files;
      report.files += 1;
      homeFiles += 1;
      const project = join(home, 'projects', `-fuzz-${fileNo % 5}`);
      mkdirSync(project, { recursive: true });
      const name = basename(source.name).startsWith('agent-')
        ? `agent-f${fileNo}.jsonl`
        : `${fuzzSessionId(fileNo)}.jsonl`;
      const path = join(project, name);
      writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));

      const coreStarted = performance.now();
      const seenRecords = new Set<number>();
      const seenIssues = new Set<number>();
      await timed(`streamRecords ${path}`, () =>
        streamRecords(path, (event) => {
          if (event.kind === 'record') seenRecords.add(event.record.loc.line);
          else seenIssues.add(event.issue.line);
        }),
      );
      expectation.forEach((kind, i) => {
        const line = i + 1;
        const blank = (lines[i] ?? Buffer.alloc(0)).toString('latin1').trim() === '';
        if (kind === 'good') {
          report.goodLines += 1;
          if (!seenRecords.has(line)) report.lostGoodLines.push(`${path}:${line}`);
        } else if (seenRecords.has(line) || seenIssues.has(line) || blank) {
          report.badLinesReported += 1;
        } else {
          report.unreportedBadLines.push(`${path}:${line}`);
        }
      });
      await timed(`loadSession ${path}`, async () => {
        const { files } = await discoverFiles([path]);
        for (const group of groupSessions(files)) await loadSession(group);
      });
      report.ms.core += performance.now() - coreStarted;
    }
    await runCommands();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return report;
}

function fuzzSessionId(n: number): string {
  return `f0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}
