import { sep } from 'node:path';

/**
 * Whether `path` is `folder` or inside it, compared as given (both absolute and resolved by the caller): the one rule
 * for "under a folder" (a root's files, a home's folders, a path named inside Claude Code's home).
 * @example isUnder('/a/b/c.jsonl', '/a/b') // true; isUnder('/a/bc', '/a/b') // false
 */
export function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}
