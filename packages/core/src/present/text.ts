/**
 * Short forms of paths and ids for tables and headers.
 * @module
 */

import { agentInfo, isAgentId } from '../model/agent.js';
import { agentOfUnknownModel } from '../model/unknown-model.js';

/** Collapse whitespace and cut to `max` characters (80 unless told), never inside a character (`characterCut`). */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, characterCut(flat, max - 1))}…` : flat;
}

/**
 * The largest cut at or before `at` (a UTF-16 index) that parts no character: no surrogate pair, letter and its
 * marks, emoji sequence or flag is split (a cut through one leaves half of it, shown as U+FFFD or another emoji).
 */
export function characterCut(text: string, at: number): number {
  let cut = Math.min(at, text.length);
  while (cut > 0 && parts(text, cut)) cut -= 1;
  return cut;
}

/** Whether a cut before `text[at]` parts a character: a surrogate pair, or what joins the one before (a mark, …). */
function parts(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const next = text.charCodeAt(at);
  if (before >= 0xd800 && before <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return true;
  if (isFlagHalf(text.codePointAt(at))) {
    // a flag is two regional indicators: a cut after an odd number of them in a row parts one
    let run = 0;
    for (let i = at - 2; i >= 0 && isFlagHalf(text.codePointAt(i)); i -= 2) run += 1;
    if (run % 2 === 1) return true;
  }
  return before === 0x200d || JOINS_BEFORE.test(String.fromCodePoint(text.codePointAt(at) ?? 0x20));
}

/** A regional indicator (U+1F1E6–U+1F1FF): two of them are a flag. */
const isFlagHalf = (code: number | undefined) => code !== undefined && code >= 0x1f1e6 && code <= 0x1f1ff;

/** A mark (variation selectors are), a joiner, an emoji's skin tone or tag: each belongs with the character before. */
const JOINS_BEFORE = /^(?:\p{M}|\u200d|[\u{1f3fb}-\u{1f3ff}]|[\u{e0020}-\u{e007f}])$/u;

/** Last two path segments, enough to recognise a project: `…/work/agentdash`. */
export function shortPath(path: string | null | undefined): string {
  if (!path) return '—';
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

/** The last path segment. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** An id that starts like a UUID: its first 8 characters read as a short id (git's habit). */
const UUID_START = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Other ids (`truth@0.61.0`, `mock-request-1`) are shown whole up to this many characters, and marked when cut. */
const WORDY_MAX = 24;

/**
 * An id's short form, at least `unique` characters long (the prefix that tells it from others listed beside it:
 * `uniquePrefixes`): a UUID's first 8 characters, another id whole (cut, with an ellipsis, past 24 characters:
 * never `truth@0.` for `truth@0.61.0`). Without its ellipsis it is a prefix of the id.
 */
export function shortId(id: string, unique = 0): string {
  if (UUID_START.test(id)) return id.slice(0, Math.max(8, unique));
  const n = Math.max(unique, Math.min(id.length, WORDY_MAX));
  return n < id.length ? `${id.slice(0, n)}…` : id;
}

/**
 * The shortest prefix of each id, at least `min` characters, that no other of `ids` starts with (as git abbreviates
 * commits): Codex's ids are time-ordered (UUIDv7) and share their first 8 characters within a day.
 */
export function uniquePrefixes(ids: readonly string[], min = 8): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const common = (a: string | undefined, b: string | undefined) => {
    if (a === undefined || b === undefined) return 0;
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  return new Map(
    sorted.map((id, i) => {
      const shared = Math.max(common(id, sorted[i - 1]), common(id, sorted[i + 1]));
      return [id, id.slice(0, Math.min(id.length, Math.max(min, shared + 1)))];
    }),
  );
}

/**
 * The short forms of session references listed together (the index's `SessionSummary.ref`: an id; `<id>@<project
 * folder>` when two project folders hold that id; else the session's key, its project folder's path and its id), each
 * one that `agentdash show` takes (without its ellipsis) and that names its session, never another: a UUID as
 * `shortId` with the length that tells it from the other ids (`uniquePrefixes`), its `@<folder>` whole after it (a
 * folder cut short names none); another id as `shortId` too, whole when it holds an `@` (`truth@0.61.0`: the `@`
 * then says nothing of a folder); a key as the folder of its path nearest the id that no other key of that id listed
 * here has, `/…/` and its id's short form (`entire-cli-3/…/f7633853`; not when an `<id>@<folder>` of that id is
 * listed too, whose path could hold that folder), else as the shortest trailing part of its
 * project folder's path that no other such key ends with, `/` and the id's short form
 * (`ann/.claude/projects/-home-ann/0c97beba`, a home inside another's path), whole when no other key of its id is
 * listed.
 * @example shortRefs(['0a1b2c3d-…@-home-ann-api', '0a1b2c3d-…@-home-ann-app'])
 * // '0a1b2c3d@-home-ann-api', '0a1b2c3d@-home-ann-app'
 */
export function shortRefs(refs: readonly string[]): ReadonlyMap<string, string> {
  const parts = (ref: string) => ref.split(/[\\/]/).filter((part) => part !== '');
  const isKey = (ref: string) => /[\\/]/.test(ref);
  // Only a UUID is cut at an `@`: another id may hold one, and its `@` then says nothing of a folder.
  const idOf = (ref: string) => {
    if (isKey(ref)) return baseName(ref);
    const at = ref.indexOf('@');
    return at > 0 && UUID_START.test(ref) ? ref.slice(0, at) : ref;
  };
  const prefixes = uniquePrefixes(refs.map(idOf));
  const dirsOf = new Map<string, string[][]>();
  for (const ref of refs.filter(isKey))
    dirsOf.set(idOf(ref), [...(dirsOf.get(idOf(ref)) ?? []), parts(ref).slice(0, -1)]);
  const qualified = new Set(refs.filter((ref) => !isKey(ref) && ref.includes('@')).map(idOf));
  const endsWith = (dir: readonly string[], tail: readonly string[]) =>
    tail.length <= dir.length && tail.every((part, i) => dir[dir.length - tail.length + i] === part);
  return new Map(
    refs.map((ref) => {
      const id = idOf(ref);
      const short = shortId(id, prefixes.get(id)?.length ?? 0);
      if (!isKey(ref))
        return [ref, !ref.includes('@') || UUID_START.test(id) ? `${short}${ref.slice(id.length)}` : ref];
      const dir = parts(ref).slice(0, -1);
      const others = (dirsOf.get(id) ?? []).filter((d) => d.join('/') !== dir.join('/'));
      // Listed alone, what tells it from the key it shares its id with is unknown here: whole.
      if (others.length === 0) return [ref, ref];
      // The folder nearest the id that no other key of the id has on its path: `<folder>/…/<id>` (the folders
      // between left out), else the shortest trailing part of the path no other ends with.
      // Not beside an `<id>@<folder>` of the id, whose path is not known here and could hold that folder too.
      const telling = qualified.has(id)
        ? undefined
        : [...dir].reverse().find((part) => !/^[A-Za-z]:$/.test(part) && others.every((d) => !d.includes(part)));
      if (telling !== undefined && telling !== dir.at(-1)) return [ref, `${telling}/…/${short}`];
      for (let n = 1; n <= dir.length; n++) {
        const tail = dir.slice(dir.length - n);
        if (!others.some((d) => endsWith(d, tail))) return [ref, `${tail.join('/')}/${short}`];
      }
      return [ref, ref];
    }),
  );
}

/**
 * A model as people read it: the id, except the placeholder an adapter gives a session whose files never name their
 * model (`codex-unknown-model`), which says so and names the agent.
 * @example modelLabel('codex-unknown-model') // 'unknown Codex model'
 */
export function modelLabel(model: string): string {
  const agent = agentOfUnknownModel(model, isAgentId);
  return agent === undefined ? model : `unknown ${agentInfo(agent).label} model`;
}

/** Models named in a sentence, as people read them (`modelLabel`), one after another: `gpt-5, unknown Codex model`. */
export function modelList(models: readonly string[]): string {
  return models.map(modelLabel).join(', ');
}

/** A model name without the `claude-` prefix and date suffix: `opus-4-1` (see `modelLabel`). */
export function shortModel(model: string): string {
  return modelLabel(model)
    .replace(/^claude-/, '')
    .replace(/-\d{8}$/, '');
}

/**
 * Short names of models shown together (a chart's legend): `shortModel`, unless two models would get the same one
 * (`claude-sonnet-4` and `claude-sonnet-4-20250514`): those keep their date.
 */
export function shortModels(models: readonly string[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const m of models) counts.set(shortModel(m), (counts.get(shortModel(m)) ?? 0) + 1);
  return new Map(
    models.map((m) => [m, (counts.get(shortModel(m)) ?? 0) > 1 ? m.replace(/^claude-/, '') : shortModel(m)]),
  );
}
