/** The price table a command prices with: the built-in one, overridden by `--prices FILE`. */
import { readFileSync } from 'node:fs';
import { messageOf } from '@agentdash/core/base';
import { defaultPriceTable, mergePriceTables, type PriceTable, parsePriceFile } from '@agentdash/core/usage';
import { UsageError } from './errors.js';

/** Why a prices file could not be read, in words, by its system error code. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder',
};

/**
 * The built-in table, overridden by `file` (AgentDash's shape or LiteLLM's JSON) when one is given; models the file
 * prices wrongly are skipped with a `note`, and a file pricing none is a usage error. `now` dates the file's prices.
 */
export async function loadPriceTable(
  file: string | undefined,
  now: number,
  note: (message: string) => void,
): Promise<PriceTable> {
  if (file === undefined) return defaultPriceTable;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === undefined ? messageOf(error) : (READ_FAILURES[code] ?? code);
    throw new UsageError(`--prices ${file}: cannot read it (${why})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // one line: the parser quotes the text it stopped in, newlines and all
    throw new UsageError(`--prices ${file}: not JSON (${messageOf(error).replace(/\s+/g, ' ').slice(0, 200)})`);
  }
  const { table, issues } = parsePriceFile(json, new Date(now).toISOString().slice(0, 10));
  for (const issue of issues) note(`--prices ${file}: ${issue.model || 'file'}: ${issue.message} (skipped)`);
  if (Object.keys(table.models).length === 0) throw new UsageError(`--prices ${file}: no model prices in it`);
  return mergePriceTables(defaultPriceTable, { ...table, source: file });
}

/**
 * A 64-bit digest of a text, in hex: FNV-1a (32-bit prime 16777619) over its UTF-16 code units in two lanes, from
 * different offset bases, the second also mixing in each unit's position. It tells price tables apart in a stored
 * answer's key, where loading node:crypto for a SHA would cost a warm command more than the rest of its key. Not for
 * secrets.
 */
export function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619);
    b = Math.imul(b ^ (c + i), 16777619);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}
