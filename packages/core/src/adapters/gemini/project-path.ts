import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isRecord } from '../../internal/guards.js';

/** Largest `.project_root` / `projects.json` read. */
const MAX_SMALL_FILE = 64 * 1024;
const cache = new Map<string, string | undefined>();

/**
 * The project path of a Gemini project folder (`~/.gemini/tmp/<project>`): its `.project_root` file (0.61+),
 * else the entry of `~/.gemini/projects.json` that names the folder. The older layout names the folder by the
 * SHA-256 of the path and records the path nowhere: undefined then (`projectPathFromHash` finds it in the session's
 * messages). Never throws.
 */
export function projectPathOf(projectDir: string): string | undefined {
  if (cache.has(projectDir)) return cache.get(projectDir);
  const found = fromProjectRoot(projectDir) ?? fromProjectsJson(projectDir);
  if (cache.size > 1000) cache.clear();
  cache.set(projectDir, found);
  return found;
}

function fromProjectRoot(projectDir: string): string | undefined {
  const text = readSmall(join(projectDir, '.project_root'))?.trim();
  return text !== undefined && text !== '' && !text.includes('\n') ? text : undefined;
}

function fromProjectsJson(projectDir: string): string | undefined {
  const tmp = dirname(projectDir);
  if (basename(tmp) !== 'tmp') return undefined;
  const text = readSmall(join(dirname(tmp), 'projects.json'));
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const projects = isRecord(parsed) && isRecord(parsed.projects) ? parsed.projects : undefined;
  if (projects === undefined) return undefined;
  const name = basename(projectDir);
  for (const [path, value] of Object.entries(projects)) if (value === name) return path;
  return undefined;
}

function readSmall(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_SMALL_FILE);
    const bytes = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytes).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A 0.20-layout project folder's name: the SHA-256 (hex) of the project's path. */
const HASH_NAME = /^[0-9a-f]{64}$/;
/** Paths inside a string: POSIX (`/home/ann/app/src/a.ts`) or Windows (`C:\Users\ann\app`). */
const PATHS = /(?:[A-Za-z]:\\|\/)[^\s"'`<>|;,(){}[\]*?]+/g;
/** Fields that hold data, not text (an image's base64, full of `/`), never looked into. */
const DATA_FIELDS: ReadonlySet<string> = new Set(['inlineData', 'data', 'fileData']);
/** Bounds for one file: folders hashed, characters looked into (per string and in all), a path's length and depth. */
const MAX_FOLDERS = 4000;
const MAX_CHARS = 4 * 1024 * 1024;
const MAX_STRING = 64 * 1024;
const MAX_PATH = 4096;
const MAX_DEPTH = 64;
/** macOS's `/tmp`, `/var` and `/etc` are links into `/private`, the path Gemini hashes. */
const PRIVATE = /^\/(?:tmp|var|etc)(?:\/|$)/;

/**
 * The project path of a hash-named folder (`~/.gemini/tmp/<sha256 of the path>`, the 0.20 layout, which records the
 * path nowhere), found among the folders of the absolute paths its messages name (a file read, a command's folder):
 * the one whose SHA-256 is the folder's name. A match is proof, not a guess; undefined when none matches (a session
 * that names no path of its project). Bounded (`MAX_*`; data fields such as images skipped). Never throws.
 */
export function projectPathFromHash(projectDir: string, messages: readonly unknown[]): string | undefined {
  const name = basename(projectDir);
  if (!HASH_NAME.test(name)) return undefined;
  const tried = new Set<string>();
  const matches = (folder: string) => {
    if (tried.has(folder)) return false;
    tried.add(folder);
    return createHash('sha256').update(folder).digest('hex') === name;
  };
  let chars = 0;
  const stack: unknown[] = [];
  for (let i = messages.length - 1; i >= 0; i--) stack.push(messages[i]);
  while (stack.length > 0 && tried.size < MAX_FOLDERS && chars < MAX_CHARS) {
    const value = stack.pop();
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    else if (isRecord(value)) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        if (!DATA_FIELDS.has(key)) stack.push(child);
      }
    } else if (typeof value === 'string') {
      const text = value.length > MAX_STRING ? value.slice(0, MAX_STRING) : value;
      chars += text.length;
      for (const found of text.matchAll(PATHS)) {
        if (found[0].length > MAX_PATH) continue;
        const separator = found[0].includes('\\') ? '\\' : '/';
        const parts = found[0].split(separator);
        for (let n = Math.min(parts.length, MAX_DEPTH); n > 1 && tried.size < MAX_FOLDERS; n--) {
          const folder = parts.slice(0, n).join(separator);
          if (matches(folder)) return folder;
          if (PRIVATE.test(folder) && matches(`/private${folder}`)) return `/private${folder}`;
        }
      }
    }
  }
  return undefined;
}
