import { readFile, stat } from 'node:fs/promises';
import { messageOf } from '../errors.js';
import { isRecord } from '../internal/guards.js';
import { capDepth } from '../internal/json-depth.js';
import type { OpenBytes } from '../io/read-lines.js';
import { readWhole } from '../io/read-whole.js';
import type { ParseIssue } from '../model/issue.js';
import { MAX_META_BYTES } from './thread-tally.js';

/** A subagent file's `.meta.json` sidecar, read through `openBytes` when given (an archive); an issue when unreadable. */
export async function readMeta(
  path: string,
  issues: ParseIssue[],
  openBytes: OpenBytes | undefined,
): Promise<Record<string, unknown> | undefined> {
  try {
    let text: string;
    if (openBytes) {
      // Through the given source (the index's archive for a file that is gone), at most MAX_META_BYTES.
      const whole = await readWhole(openBytes, path, MAX_META_BYTES, 64 * 1024);
      if (whole.overLimit) throw new Error(`larger than ${MAX_META_BYTES} bytes`);
      text = whole.bytes.toString('utf8');
    } else {
      // A meta file is a few hundred bytes: a huge file, or a link to a device or a FIFO, is not read.
      const info = await stat(path);
      if (!info.isFile() || info.size > MAX_META_BYTES) {
        throw new Error(info.isFile() ? `larger than ${MAX_META_BYTES} bytes` : 'not a regular file');
      }
      text = await readFile(path, 'utf8');
    }
    const parsed: unknown = capDepth(JSON.parse(text)).value;
    return isRecord(parsed) ? parsed : undefined;
  } catch (error) {
    issues.push({
      code: 'invalid_json',
      file: path,
      line: 1,
      message: `unreadable subagent meta: ${messageOf(error)}`,
    });
    return undefined;
  }
}
