import { basename, dirname, join, resolve } from 'node:path';
import { isRecord } from '../internal/guards.js';
import type { AgentId } from '../model/agent.js';
import type { ParseIssue } from '../model/issue.js';
import type { DiscoveredFile, Discovery } from './discover.js';
import { type ListedFolder, readFolder } from './listed-folders.js';
import { readHead } from './read-head.js';
import { statOrUndefined } from './stat.js';

/**
 * What an agent says of a headless run's output (`codex exec --json`, `gemini --output-format stream-json`: the
 * JSON lines a CI job keeps as an artifact, its transcript being gone with the machine): the session id when a file's
 * first JSON line starts such an output, else undefined. Declared by the adapter (`AgentAdapter.headlessStart`).
 */
export type HeadlessStart = (first: Readonly<Record<string, unknown>>) => string | undefined;

/** An agent that writes headless output: its id and how its output starts. */
export interface HeadlessWriter {
  readonly id: AgentId;
  readonly headlessStart?: HeadlessStart | undefined;
}

/** Names a headless output is kept under (`*.exec.jsonl`, `*.stdout.txt`, `*.json`…); other files are not opened. */
const HEADLESS_NAME = /\.(?:jsonl|ndjson|json|txt|log)$/i;
/** The first line is a small event (`thread.started`, `init`); a longer one starts no headless output. */
const FIRST_LINE_BYTES = 16 * 1024;

/**
 * The writer whose headless output a file is, by its first JSON line, among `writers`, with the session id that line
 * names; undefined for a folder, a missing file or any other content. The one place a file is told a headless output
 * by its content: discovery of named paths (`adaptersForPath`, core's `discoverAll`) and each such adapter's own
 * discovery ask it. Never throws.
 */
export async function headlessOwnerOf<W extends HeadlessWriter>(
  path: string,
  writers: readonly W[],
): Promise<{ readonly writer: W; readonly sessionId: string } | undefined> {
  const candidates = writers.filter((w) => w.headlessStart !== undefined);
  if (candidates.length === 0 || !HEADLESS_NAME.test(path) || statOrUndefined(path)?.isFile() !== true) {
    return undefined;
  }
  const line = await readHead(path, FIRST_LINE_BYTES, { firstLine: true });
  const first = parseFirst(line);
  if (first === undefined) return undefined;
  for (const writer of candidates) {
    const sessionId = writer.headlessStart?.(first);
    if (sessionId !== undefined && sessionId !== '') return { writer, sessionId };
  }
  return undefined;
}

/**
 * The headless outputs of `writers` at a path: the file itself, or the files directly in a folder (a CI job's
 * artifact folder; sub-folders are not searched). Each is its session's main file in a project folder of its own
 * folder, with the agent of the writer that recognised it. Each folder listed is noted in `folders`. Never throws.
 */
export async function discoverHeadless(
  root: string,
  writers: readonly HeadlessWriter[],
  folders: ListedFolder[] = [],
): Promise<Discovery> {
  const path = resolve(root);
  const issues: ParseIssue[] = [];
  const info = statOrUndefined(path);
  const candidates = info?.isDirectory()
    ? (readFolder(path, folders, issues) ?? [])
        .filter((e) => !e.isDirectory() && HEADLESS_NAME.test(e.name))
        .map((e) => join(path, e.name))
        .sort()
    : info?.isFile()
      ? [path]
      : [];
  const files: DiscoveredFile[] = [];
  const taken = new Set<string>();
  for (const file of candidates) {
    const owner = await headlessOwnerOf(file, writers);
    const stats = owner === undefined ? undefined : statOrUndefined(file);
    if (owner === undefined || stats === undefined) continue;
    // `codex exec resume` writes each run's output apart under the same id: the first file (by name) keeps the id,
    // each later one is `<id>@<file name>`, a session of its own, so that no run hides another.
    const sessionId = taken.has(owner.sessionId) ? `${owner.sessionId}@${basename(file)}` : owner.sessionId;
    taken.add(owner.sessionId);
    files.push({
      path: file,
      agent: owner.writer.id,
      projectDir: dirname(file),
      role: 'main',
      sessionId,
      agentId: undefined,
      metaPath: undefined,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ino: stats.ino,
      headless: true,
    });
  }
  return { files, issues, folders };
}

function parseFirst(line: string | undefined): Readonly<Record<string, unknown>> | undefined {
  if (line === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(line.replace(/^\uFEFF/, ''));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

type Recognizer = (path: string, folders?: ListedFolder[]) => Promise<boolean>;

/** A `recognizes` that also takes an agent's headless output, its test of the agent's own layout kept apart. */
type HeadlessAware = Recognizer & { readonly byLayout: Recognizer };

/**
 * An agent's `recognizes`, also true for a path that is, or a folder that directly holds, the agent's headless
 * output (so a CI job's artifact folder is the agent's, as its home is). The layout test alone stays reachable
 * (`recognizesByLayout`): a search for homes looks on below a folder that only holds such output.
 */
export function recognizingHeadless(writer: HeadlessWriter, recognizes: Recognizer): HeadlessAware {
  const both: Recognizer = async (path, folders) =>
    (await recognizes(path, folders)) || (await discoverHeadless(path, [writer], folders)).files.length > 0;
  return Object.assign(both, { byLayout: recognizes });
}

/**
 * Whether `recognizes` takes `path` by its agent's own layout (a home, a folder or transcript in one), not only for
 * the headless output a folder holds (`recognizingHeadless`).
 */
export function recognizesByLayout(recognizes: Recognizer, path: string, folders?: ListedFolder[]): Promise<boolean> {
  const layout = (recognizes as Partial<HeadlessAware>).byLayout;
  return (layout ?? recognizes)(path, folders);
}
