// The floors a cold index is compared with: one thread `JSON.parse`-ing every line of every transcript.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every transcript file under a home's projects folder. */
export function transcriptFiles(home) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.jsonl')) files.push(join(dir, e.name));
    }
  };
  walk(join(home, 'projects'));
  return files;
}

/**
 * The fastest floor: one thread reading each file as bytes, finding line ends in the buffer and `JSON.parse`-ing each
 * line decoded on its own (no whole-file string, no array of lines).
 */
export function fastFloor(home) {
  const files = transcriptFiles(home);
  const t0 = performance.now();
  let lines = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(10, start);
      if (end === -1) end = bytes.length;
      if (end > start) {
        JSON.parse(bytes.toString('utf8', start, end));
        lines += 1;
      }
      start = end + 1;
    }
  }
  return { ms: performance.now() - t0, lines, files: files.length };
}

/** The first floor: one thread reading each transcript file as one string, splitting it and JSON.parse-ing every line. */
export function floor(home) {
  const files = transcriptFiles(home);
  const t0 = performance.now();
  let lines = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      JSON.parse(line);
      lines += 1;
    }
  }
  return { ms: performance.now() - t0, lines, files: files.length };
}
