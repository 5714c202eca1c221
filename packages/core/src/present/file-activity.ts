/**
 * The files a session's calls read, wrote, edited, created, deleted or moved, each with its calls: what an agent
 * did to a codebase, file by file. Made from each call's kind, its typed result (the path the tool reports, a
 * patch's files and line counts) or, for a call without a file result (failed, running), its input's path. Of a
 * shell command that worked, what its command line plainly did (`shellFilesOf`: the files it printed, wrote with `>`
 * or `tee`, edited with `sed -i`, deleted, moved); what else it did to files is not known here. Browser-safe.
 * @module
 */

import { parseApplyPatch } from '../model/apply-patch.js';
import type { ToolCall } from '../model/tool-call.js';
import type { TypedResult } from '../model/typed-result.js';
import { joinedPath } from './paths.js';
import { shellFilesOf } from './shell-files.js';

/** Where the files' figures come from, as every screen says it beside them. */
export const FILE_SOURCES_NOTE =
  "from the file tools' calls and what a shell command plainly did (cat, >, tee, sed -i, rm, mv, cp): " +
  'other shell effects are not known';

/** How a session used one file. */
export interface FileActivity {
  /** As the calls wrote it; a relative path is joined to the session's working folder when one is given. */
  readonly path: string;
  /** Calls that read it (a read, whichever variant), and worked. */
  readonly reads: number;
  /** Calls that wrote the whole file (a write, or a patch adding it), and worked. */
  readonly writes: number;
  /**
   * Calls that changed part of it (an edit, a multi-edit, a notebook cell, a patch updating or moving it), and
   * worked. A call that failed (or has no result yet) counts in `calls` (and `failed`) only: it changed nothing.
   */
  readonly edits: number;
  /** A call of the session created it (a write or an edit that made it, a patch that added it, a move to it). */
  readonly created: boolean;
  /** A patch or a shell command of the session deleted it (and nothing wrote it again). */
  readonly deleted: boolean;
  /** Where a patch or a shell command of the session moved it (the last move). */
  readonly movedTo: string | null;
  /** Lines the successful calls added and removed, as their results count them. */
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** Its calls that failed. */
  readonly failed: number;
  /** Every call on it. */
  readonly calls: number;
  /** The first `FILE_CALL_IDS` of those calls' ids, in the session's order (to open each in the timeline). */
  readonly callIds: readonly string[];
  readonly firstAt: string | null;
  readonly lastAt: string | null;
}

/**
 * Whether the session changed the file (a call that wrote, edited, created, deleted or moved it worked), not only
 * read it or tried to change it.
 */
export function fileChanged(file: Pick<FileActivity, 'writes' | 'edits' | 'created' | 'deleted'>): boolean {
  return file.writes + file.edits > 0 || file.created || file.deleted;
}

/** Call ids kept per file: a file read a thousand times links its first calls, and says how many there were. */
export const FILE_CALL_IDS = 50;

/**
 * `create`: the call made the file, writing it whole (a write, a patch's add); `make`: by an edit (Gemini's replace);
 * `arrive`: a move put it in place (created, neither written nor edited: the move is counted on its source).
 */
type Use = 'read' | 'write' | 'edit' | 'create' | 'make' | 'arrive' | 'delete' | 'move';

/** One file one call touched, and how. */
interface Touch {
  readonly path: string;
  readonly use: Use;
  readonly added?: number | undefined;
  readonly removed?: number | undefined;
  readonly movedTo?: string | undefined;
}

const FILE_KINDS = new Set(['read', 'write', 'edit', 'multi-edit', 'notebook-edit', 'patch']);

/** One file of a patch, as it touched it: an added file created, an updated one edited, a deleted or moved one so. */
function patchTouch(file: {
  readonly path: string;
  readonly operation: 'add' | 'update' | 'delete' | 'move';
  readonly linesAdded?: number | undefined;
  readonly linesRemoved?: number | undefined;
  readonly movePath?: string | undefined;
}): Touch {
  const use = file.operation === 'add' ? 'create' : file.operation === 'update' ? 'edit' : file.operation;
  return { path: file.path, use, added: file.linesAdded, removed: file.linesRemoved, movedTo: file.movePath };
}

/** What a call's typed result says of the files it touched (undefined: it says nothing, e.g. a failed call). */
function touchesOfResult(typed: TypedResult): Touch[] | undefined {
  switch (typed.kind) {
    case 'read':
      return typed.data.filePath === undefined ? undefined : [{ path: typed.data.filePath, use: 'read' }];
    case 'write': {
      const { data } = typed;
      const use = data.operation === 'create' ? 'create' : 'write';
      return [{ path: data.filePath, use, added: data.linesAdded, removed: data.linesRemoved }];
    }
    case 'edit':
    case 'multi-edit': {
      const { data } = typed;
      const use = 'operation' in data && data.operation === 'create' ? 'make' : 'edit';
      return [{ path: data.filePath, use, added: data.linesAdded, removed: data.linesRemoved }];
    }
    case 'notebook-edit':
      return typed.data.notebookPath === undefined ? undefined : [{ path: typed.data.notebookPath, use: 'edit' }];
    case 'patch':
      return typed.data.files.map(patchTouch);
    default:
      return undefined;
  }
}

/** The use a call of this kind makes of the file its input names, when its result says nothing. */
function useOfKind(kind: string): Use {
  if (kind === 'read') return 'read';
  if (kind === 'write') return 'write';
  return 'edit';
}

/**
 * The files a call touched: from its result when that is a file result, else (a file tool's call that failed or has
 * no result yet) the file its input names.
 */
function touchesOf(call: TouchingCall): Touch[] {
  const touches = ownTouchesOf(call);
  // a move puts the file in place where it moves it (it was listed as "Not changed", with only its later reads): a
  // patch's destination is a file; a shell's `mv a b` only when `b` reads as one (`mv a.txt build` moves it into a
  // folder, `mv a.txt ..` too)
  const patch = call.result?.typed.kind === 'patch';
  const arrived = touches.filter(
    (t) => t.use === 'move' && t.movedTo !== undefined && t.movedTo !== t.path && (patch || namesAFile(t.movedTo)),
  );
  return arrived.length === 0
    ? touches
    : [...touches, ...arrived.map((t): Touch => ({ path: t.movedTo ?? '', use: 'arrive' }))];
}

/** A shell argument that names a file, not a folder: a last part with an extension, not `.`, `..`, `~` or `dir/`. */
const namesAFile = (path: string): boolean => /(?:^|\/)[^/]*[^./][^/]*\.[A-Za-z0-9]{1,12}$/.test(path);

/** The files a call names, a move's by its source path. */
function ownTouchesOf(call: TouchingCall): Touch[] {
  const script = scriptTouches(call);
  if (script !== undefined) return script;
  if (isShell(call)) {
    const command = call.status === 'ok' ? call.typedInput?.command : undefined;
    const fromCommand = command === undefined ? [] : shellFilesOf(command, call.typedInput?.shell ?? 'posix');
    // the files the client saw the command change (a formatter's edits)
    const typed = call.result?.typed;
    const edited = typed?.kind === 'bash' ? (typed.data.editedFiles ?? []) : [];
    return [
      ...fromCommand,
      ...edited.map((f): Touch => ({ path: f.filePath, use: 'edit', added: f.linesAdded, removed: f.linesRemoved })),
    ];
  }
  if (!mayTouchFiles(call)) return [];
  const typed = call.status === 'ok' ? call.result?.typed : undefined;
  const fromResult = typed === undefined ? undefined : touchesOfResult(typed);
  if (fromResult !== undefined) return fromResult;
  if (!isFileKind(call.toolKind)) return [];
  const path = call.typedInput?.filePath;
  if (path === undefined || path === '') return [];
  return [{ path, use: useOfKind(call.toolKind ?? '') }];
}

/**
 * A script's (Codex `exec`: no shell and no file tool, its input's `commands` and `patch`) files: what its commands
 * plainly did (`shellFilesOf`) and what its patches changed, once it worked; undefined for any other call.
 */
function scriptTouches(call: TouchingCall): Touch[] | undefined {
  const input = call.typedInput;
  if (input === undefined || !isScript(call)) return undefined;
  if (call.status !== 'ok') return [];
  const patched = parseApplyPatch(input.patch ?? '').map(patchTouch);
  return [...(input.commands ?? []).flatMap((command) => shellFilesOf(command, 'posix')), ...patched];
}

/** What of a call tells the files it touched (a `ToolCall`'s fields, or the index's typing of a stored call). */
export type TouchingCall = Pick<ToolCall, 'status' | 'result' | 'toolKind' | 'typedInput'>;

/** A file one call touched, and whether it changed it (`FileTally`'s rule: it worked, and did more than read). */
export interface FileTouch {
  readonly path: string;
  readonly changed: boolean;
}

/**
 * The files one call touched, each once, its path joined to `cwd` as `FileTally` joins it (`joinedPath`): what the
 * index keeps of each call to tell which sessions touched a file.
 */
export function filesTouchedBy(call: TouchingCall, cwd?: string): FileTouch[] {
  const byPath = new Map<string, boolean>();
  for (const touch of touchesOf(call)) {
    const path = joinedPath(touch.path, cwd);
    byPath.set(path, byPath.get(path) === true || (call.status === 'ok' && touch.use !== 'read'));
  }
  return [...byPath].map(([path, changed]) => ({ path, changed }));
}

interface Tally {
  path: string;
  reads: number;
  writes: number;
  edits: number;
  created: boolean;
  deleted: boolean;
  movedTo: string | null;
  linesAdded: number;
  linesRemoved: number;
  failed: number;
  calls: number;
  callIds: string[];
  firstAt: string | null;
  lastAt: string | null;
  lastCall: string;
}

const isFileKind = (kind: string | undefined): boolean => kind !== undefined && FILE_KINDS.has(kind);

/**
 * Whether a call may touch a file: its tool is a file tool, its result is a file result (Codex ran `apply_patch`
 * through its shell tool: a shell call whose result is typed `patch`), it is a shell command (`shellFilesOf`), or a
 * script naming commands or patches (`scriptTouches`). A caller reading calls one by one can skip the rest.
 */
export function mayTouchFiles(call: Pick<ToolCall, 'toolKind' | 'result' | 'typedInput'>): boolean {
  return isFileKind(call.toolKind) || isFileKind(call.result?.typed.kind) || isShell(call) || isScript(call);
}

/** A script of no tool kind whose input names commands or patches it ran (Codex `exec`: `scriptTouches`). */
const isScript = (call: Pick<ToolCall, 'toolKind' | 'typedInput'>): boolean =>
  call.toolKind === undefined && (call.typedInput?.commands !== undefined || call.typedInput?.patch !== undefined);

/** A shell call whose result is no file result: what its command line did to files is `shellFilesOf`'s. */
const isShell = (call: Pick<ToolCall, 'toolKind' | 'result'>): boolean =>
  !isFileKind(call.result?.typed.kind) && (call.toolKind === 'bash' || call.result?.typed.kind === 'bash');

/**
 * The files of a session's calls, taken one at a time in the session's order (a stream of them: memory that grows
 * with the files, not the calls). `cwd`: the session's working folder, to which a relative path (a Codex patch's,
 * some agents' inputs) is joined.
 */
export class FileTally {
  private readonly byPath = new Map<string, Tally>();

  constructor(private readonly cwd?: string) {}

  add(call: ToolCall): void {
    for (const touch of touchesOf(call)) {
      const path = joinedPath(touch.path, this.cwd);
      let t = this.byPath.get(path);
      if (t === undefined) {
        t = {
          path,
          reads: 0,
          writes: 0,
          edits: 0,
          created: false,
          deleted: false,
          movedTo: null,
          linesAdded: 0,
          linesRemoved: 0,
          failed: 0,
          calls: 0,
          callIds: [],
          firstAt: null,
          lastAt: null,
          lastCall: '',
        };
        this.byPath.set(path, t);
      }
      tally(t, call, touch, this.cwd);
    }
  }

  /** The files changed first, then the others (only read, or every change failed), each group by path. */
  files(): FileActivity[] {
    const order = (a: Tally, b: Tally) =>
      Number(fileChanged(b)) - Number(fileChanged(a)) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    return [...this.byPath.values()].sort(order).map(({ lastCall: _, ...file }) => file);
  }
}

/**
 * Every file the session's calls touched (`calls` in the session's order, subagents' included): `FileTally` over
 * them.
 */
export function fileActivityOf(calls: Iterable<ToolCall>, cwd?: string): FileActivity[] {
  const tally = new FileTally(cwd);
  for (const call of calls) tally.add(call);
  return tally.files();
}

function tally(t: Tally, call: ToolCall, touch: Touch, cwd: string | undefined): void {
  // A patch naming one file twice (moved, then changed) is one call on it.
  const sameCall = t.lastCall === call.id;
  if (call.status === 'ok') use(t, touch, cwd);
  if (sameCall) return;
  t.lastCall = call.id;
  t.calls += 1;
  if (call.status === 'error') t.failed += 1;
  if (t.callIds.length < FILE_CALL_IDS) t.callIds.push(call.id);
  const at = call.timestamp ?? null;
  if (at !== null) {
    if (t.firstAt === null || at < t.firstAt) t.firstAt = at;
    if (t.lastAt === null || at > t.lastAt) t.lastAt = at;
  }
}

/** What a call that worked did to the file. */
function use(t: Tally, touch: Touch, cwd: string | undefined): void {
  if (touch.use === 'read') t.reads += 1;
  else if (touch.use === 'write') {
    t.writes += 1;
    t.deleted = false;
  } else if (touch.use === 'create' || touch.use === 'make') {
    t.created = true;
    t.deleted = false;
    if (touch.use === 'create') t.writes += 1;
    else t.edits += 1;
  } else if (touch.use === 'arrive') {
    t.created = true;
    t.deleted = false;
  } else if (touch.use === 'delete') t.deleted = true;
  else {
    t.edits += 1;
    if (touch.use === 'move' && touch.movedTo !== undefined) t.movedTo = joinedPath(touch.movedTo, cwd);
  }
  t.linesAdded += touch.added ?? 0;
  t.linesRemoved += touch.removed ?? 0;
}
