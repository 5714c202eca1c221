/** Parsers of the search tools: Glob, Grep. */
import { bool, num, str } from '../../../../internal/guards.js';
import { strArray } from '../text.js';
import { type DataParser, rec } from './shared.js';

export const glob: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filenames = strArray(tur.filenames);
    if (!filenames) return undefined;
    return {
      filenames,
      numFiles: num(tur.numFiles) ?? filenames.length,
      durationMs: num(tur.durationMs),
      truncated: bool(tur.truncated),
      totalMatches: num(tur.totalMatches),
    };
  }
  const text = ctx.text.trim();
  if (text === 'No files found') return { filenames: [], numFiles: 0 };
  const lines = text.split('\n').filter((l) => l !== '');
  const truncated = lines.some((l) => l.startsWith('(Results are truncated'));
  const filenames = lines.filter((l) => !l.startsWith('(Results are truncated'));
  return { filenames, numFiles: filenames.length, truncated: truncated || undefined };
};

export const grep: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const filenames = strArray(tur.filenames);
    if (!filenames) return undefined;
    return {
      mode: str(tur.mode) ?? 'files_with_matches',
      filenames,
      content: str(tur.content),
      numFiles: num(tur.numFiles) ?? filenames.length,
      numLines: num(tur.numLines),
      numMatches: num(tur.numMatches),
      appliedLimit: num(tur.appliedLimit),
      appliedOffset: num(tur.appliedOffset),
      totalFiles: num(tur.totalFiles),
      totalLines: num(tur.totalLines),
    };
  }
  const mode = str(ctx.input.output_mode) ?? 'files_with_matches';
  const text = ctx.text.replace(/\s+$/, '');
  if (mode === 'content') {
    const content = text === 'No matches found' ? '' : text;
    return { mode, filenames: [], content, numFiles: 0, numLines: content === '' ? 0 : content.split('\n').length };
  }
  if (mode === 'count') {
    const total = /\n*Found (\d+) total occurrences? across (\d+) files?\.?$/.exec(text);
    const content = total ? text.slice(0, total.index) : text;
    return {
      mode,
      filenames: [],
      content,
      numFiles: total ? Number(total[2]) : 0,
      numMatches: total ? Number(total[1]) : 0,
    };
  }
  if (text === 'No files found') return { mode, filenames: [], numFiles: 0 };
  const found = /^Found (\d+) files?(?: limit: (\d+))?(?:, offset: (\d+))?\n?/.exec(text);
  const filenames = (found ? text.slice(found[0].length) : text).split('\n').filter((l) => l !== '');
  return {
    mode,
    filenames,
    numFiles: found ? Number(found[1]) : filenames.length,
    appliedLimit: found?.[2] === undefined ? undefined : Number(found[2]),
    appliedOffset: found?.[3] === undefined ? undefined : Number(found[3]),
  };
};
