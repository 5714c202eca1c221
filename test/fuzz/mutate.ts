/**
 * Mutations of real transcript lines, one class per way a careful user's worst day breaks a file: bytes cut,
 * dropped, inserted or flipped (NUL, invalid UTF-8, CR), lines duplicated, JSON values swapped for values nested
 * thousands of levels deep, huge arrays, wrong types, unknown record types, missing ids. A mutated line never holds
 * a newline, so line numbers stay those of the original file.
 */
import { deepArray, deepMixed, deepObject, WORST_DEPTH } from '../hostile.js';
import type { Prng } from '../prng.js';

export const mutationClasses = [
  'truncate',
  'drop-bytes',
  'insert-bytes',
  'insert-nul',
  'invalid-utf8',
  'flip-byte',
  'carriage-return',
  'duplicate',
  'deep-value',
  'deep-everywhere',
  'huge-array',
  'wrong-type',
  'unknown-type',
  'drop-uuid',
  'not-object',
  'nul-in-strings',
  'empty',
] as const;
export type MutationClass = (typeof mutationClasses)[number];

const NEWLINE = 0x0a;

function noNewlines(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((b) => (b === NEWLINE ? 0x20 : b)));
}

/** Every path to a value inside a JSON value (object keys and array indexes), without recursion. */
function valuePaths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: [unknown, (string | number)[]][] = [[root, []]];
  while (stack.length > 0 && out.length < 500) {
    const [node, path] = stack.pop() as [unknown, (string | number)[]];
    if (typeof node !== 'object' || node === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [i, v] as [number, unknown])
      : Object.entries(node);
    for (const [key, value] of entries) {
      out.push([...path, key]);
      stack.push([value, [...path, key]]);
    }
  }
  return out;
}

const PLACEHOLDER = '"__agentdash_fuzz_placeholder__"';

/** The line with the value at `path` replaced by raw JSON text `json`. */
function replaceAt(value: unknown, path: readonly (string | number)[], json: string): string {
  if (path.length === 0) return json;
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = JSON.parse(PLACEHOLDER);
  return JSON.stringify(copy).replace(PLACEHOLDER, json);
}

function deepValue(prng: Prng): string {
  const depth = WORST_DEPTH + prng.int(WORST_DEPTH);
  return prng.pick([deepArray, deepObject, deepMixed])(depth);
}

/** One mutation of `line` (a complete transcript line without its newline). */
export function mutateLine(line: string, kind: MutationClass, prng: Prng): Buffer {
  const bytes = Buffer.from(line, 'utf8');
  const at = () => prng.int(Math.max(1, bytes.length));
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  switch (kind) {
    case 'truncate':
      return bytes.subarray(0, Math.max(1, at()));
    case 'drop-bytes': {
      const start = at();
      return Buffer.concat([bytes.subarray(0, start), bytes.subarray(start + 1 + prng.int(16))]);
    }
    case 'insert-bytes': {
      const start = at();
      const noise = noNewlines(Buffer.from(Array.from({ length: 1 + prng.int(8) }, () => prng.int(256))));
      return Buffer.concat([bytes.subarray(0, start), noise, bytes.subarray(start)]);
    }
    case 'insert-nul': {
      const start = at();
      return Buffer.concat([bytes.subarray(0, start), Buffer.alloc(1 + prng.int(64)), bytes.subarray(start)]);
    }
    case 'invalid-utf8': {
      const start = at();
      const bad = Buffer.from(prng.pick([[0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x99], [0xed, 0xa0, 0x80]]));
      return Buffer.concat([bytes.subarray(0, start), bad, bytes.subarray(start)]);
    }
    case 'flip-byte': {
      const copy = Buffer.from(bytes);
      const i = at();
      copy[i] = (copy[i] ?? 0) ^ (1 << prng.int(8));
      return noNewlines(copy);
    }
    case 'carriage-return':
      return Buffer.concat([bytes, Buffer.from('\r')]);
    case 'duplicate':
      return bytes;
    case 'deep-value': {
      const paths = valuePaths(parsed);
      return Buffer.from(replaceAt(parsed, paths.length > 0 ? prng.pick(paths) : [], deepValue(prng)));
    }
    case 'deep-everywhere': {
      // Every top-level field (and the message's) nested deep at once.
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return Buffer.from(deepValue(prng));
      const record = { ...(parsed as Record<string, unknown>) };
      const keys = Object.keys(record).filter((k) => k !== 'type' && k !== 'uuid');
      for (const [i, key] of keys.entries()) record[key] = `__deep_${i}__`;
      let text = JSON.stringify(record);
      for (const i of keys.keys()) text = text.replace(`"__deep_${i}__"`, deepObject(200 + prng.int(400)));
      return Buffer.from(text);
    }
    case 'huge-array': {
      const paths = valuePaths(parsed);
      const huge = `[${new Array(50_000 + prng.int(100_000)).fill(prng.int(2) === 0 ? '0' : '"x"').join(',')}]`;
      return Buffer.from(replaceAt(parsed, paths.length > 0 ? prng.pick(paths) : [], huge));
    }
    case 'wrong-type': {
      const paths = valuePaths(parsed);
      if (paths.length === 0) return bytes;
      return Buffer.from(
        replaceAt(parsed, prng.pick(paths), prng.pick(['null', '42', '"s"', '[]', '{}', 'true', '-1e308'])),
      );
    }
    case 'unknown-type':
      return Buffer.from(replaceAt(parsed, ['type'], JSON.stringify(`fuzz-${prng.int(1000)}`)));
    case 'drop-uuid': {
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return bytes;
      const { uuid: _uuid, ...rest } = parsed as Record<string, unknown>;
      return Buffer.from(JSON.stringify(rest));
    }
    case 'not-object':
      return Buffer.from(prng.pick(['[]', '1', '"text"', 'null', 'true', '[{"type":"user"}]']));
    case 'nul-in-strings':
      return Buffer.from(line.replace(/"([^"\\]{1,40})"/g, (_m, s: string) => JSON.stringify(`${s}\u0000`)));
    case 'empty':
      return Buffer.from(prng.pick(['', ' ', '\t', '\r']));
    default:
      return kind satisfies never;
  }
}
