import { closeSync, openSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isRecord } from '../../internal/guards.js';

/** Largest `.project_root` / `projects.json` read. */
const MAX_SMALL_FILE = 64 * 1024;
const cache = new Map<string, string | undefined>();

/**
 * The project path of a Gemini project folder (`~/.gemini/tmp/<project>`): its `.project_root` file (0.61+),
 * else the entry of `~/.gemini/projects.json` that names the folder. The older layout names the folder by the
 * SHA-256 of the path and records the path nowhere: undefined then. Never throws.
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
