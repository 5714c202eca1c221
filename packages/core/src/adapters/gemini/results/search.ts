import { isRecord, str } from '../../../internal/guards.js';
import type { GeminiResultContext } from './context.js';

/** `glob` → `glob`: `Found N file(s) matching … :` then one absolute path per line. */
export function globData(ctx: GeminiResultContext): unknown {
  const lines = ctx.text.split('\n');
  const found = /^Found (\d+) file/.exec(lines[0] ?? '');
  const filenames = found ? lines.slice(1).filter((l) => l.trim() !== '') : [];
  return { filenames, numFiles: found ? Number(found[1]) : filenames.length };
}

/**
 * `grep_search` [`search_file_content`] → `grep` in content mode: `Found N match(es) …`, then `File: <path>`
 * sections of `L<n>: line` rows. 0.61 also records the matches as objects in `resultDisplay.matches`.
 */
export function grepData(ctx: GeminiResultContext): unknown {
  const found = /^Found (\d+) match/.exec(ctx.text);
  const files = new Set<string>();
  const matches = isRecord(ctx.display) && Array.isArray(ctx.display.matches) ? ctx.display.matches : undefined;
  if (matches) {
    for (const m of matches) {
      const path = isRecord(m) ? str(m.filePath) : undefined;
      if (path !== undefined) files.add(path);
    }
  } else {
    for (const line of ctx.text.split('\n')) if (line.startsWith('File: ')) files.add(line.slice(6).trim());
  }
  const filenames = [...files];
  return {
    mode: 'content',
    filenames,
    content: ctx.text,
    numFiles: filenames.length,
    numMatches: found ? Number(found[1]) : (matches?.length ?? 0),
  };
}
