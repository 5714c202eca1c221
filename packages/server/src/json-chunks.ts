/**
 * `JSON.stringify(value, null, 2)` as a sequence of pieces, without recursion: a session of any size and any
 * nesting depth is written without ever being one string (V8 caps strings near 512 MiB), and without overflowing
 * the stack on deeply nested tool output.
 */

type Frame =
  | { readonly kind: 'array'; readonly items: readonly unknown[]; index: number; readonly indent: string }
  | {
      readonly kind: 'object';
      readonly source: Readonly<Record<string, unknown>>;
      readonly keys: readonly string[];
      index: number;
      wrote: boolean;
      readonly indent: string;
    };

/** What JSON.stringify writes for a value after `toJSON`: a literal, a container to open, or nothing (omitted). */
function prepare(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, key);
  } else if (typeof value === 'bigint') {
    const toJSON = (BigInt.prototype as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as (k: string) => unknown).call(value, key);
  }
  return value;
}

const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** A primitive's JSON text, or undefined for an object or array. */
function literal(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // what JSON.stringify does too
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return undefined;
  }
}

/** Containers of at most this many values, this deep, are written by JSON.stringify itself, as one piece. */
const NATIVE_NODES = 10_000;
const NATIVE_DEPTH = 64;

/**
 * Whether `value` is small and shallow enough to be written by `JSON.stringify` in one piece, and has nothing that
 * stringify would treat otherwise than the generator (no `toJSON`, no value reached twice: a cycle is reported by the
 * generator). Stops at the first sign of a large or deep value, so a session's huge arrays are never walked whole.
 */
function small(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const seen = new Set<object>([value]);
  const stack: { readonly value: object; readonly depth: number }[] = [{ value, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const top = stack.pop() as { readonly value: object; readonly depth: number };
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    nodes += children.length;
    if (nodes > NATIVE_NODES) return false;
    for (const child of children) {
      if (typeof child !== 'object' || child === null) {
        if (typeof child === 'bigint') return false;
        continue;
      }
      if (typeof (child as { toJSON?: unknown }).toJSON === 'function' || seen.has(child)) return false;
      if (top.depth + 1 >= NATIVE_DEPTH) return false;
      seen.add(child);
      stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return true;
}

/** Nesting up to this deep is written by `JSON.stringify` itself (`indented`); deeper, by indenting its lines. */
const NATIVE_INDENT_LEVELS = 16;

/**
 * `JSON.stringify(value, null, 2)` with every line after the first indented by `indent` (spaces): for a few levels,
 * stringify writes it inside as many one-item arrays, and the arrays' own text around it is cut off, which is much
 * cheaper than indenting the lines of its text after.
 */
function indented(value: object, indent: string): string {
  const levels = indent.length / 2;
  if (levels === 0) return JSON.stringify(value, null, 2);
  if (levels > NATIVE_INDENT_LEVELS || !Number.isInteger(levels) || indent.trim() !== '') {
    return JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`);
  }
  let wrapped: unknown = value;
  for (let i = 0; i < levels; i++) wrapped = [wrapped];
  // Around it: `[` and a line break, then the next level's indent, per level; after it, the same in reverse.
  const before = 2 * levels + levels * (levels + 1);
  const after = 2 * levels + levels * (levels - 1);
  const text = JSON.stringify(wrapped, null, 2);
  return text.slice(before, text.length - after);
}

/**
 * Pieces whose concatenation is exactly `JSON.stringify(value, null, 2)` (for a value JSON can represent), every line
 * after the first indented by `indent` (spaces): the text of a value written inside another at that depth.
 */
export function* jsonChunks(value: unknown, indent = ''): Generator<string, void, undefined> {
  const stack: Frame[] = [];
  const seen = new Set<object>();

  /** Writes a primitive, or opens a container (pushing its frame). */
  function* open(raw: unknown, indent: string): Generator<string, void, undefined> {
    const text = literal(raw);
    if (text !== undefined) {
      yield text;
      return;
    }
    const container = raw as object;
    if (seen.has(container)) throw new TypeError('Converting circular structure to JSON');
    // A small value inside (an event, a call) in one piece: JSON.stringify is many times faster than a piece per
    // value, and its text never holds a raw line break, so indenting every line after the first places it exactly.
    if ((stack.length > 0 || indent !== '') && small(container)) {
      yield indented(container, indent);
      return;
    }
    seen.add(container);
    if (Array.isArray(container)) {
      yield '[';
      stack.push({ kind: 'array', items: container, index: 0, indent });
    } else {
      yield '{';
      const source = container as Record<string, unknown>;
      stack.push({ kind: 'object', source, keys: Object.keys(source), index: 0, wrote: false, indent });
    }
  }

  const top = prepare(value, '');
  if (omitted(top)) return;
  yield* open(top, indent);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const inner = `${frame.indent}  `;
    if (frame.kind === 'array') {
      if (frame.index >= frame.items.length) {
        stack.pop();
        seen.delete(frame.items);
        yield frame.items.length === 0 ? ']' : `\n${frame.indent}]`;
        continue;
      }
      const i = frame.index++;
      const item = prepare(frame.items[i], String(i));
      yield `${i === 0 ? '\n' : ',\n'}${inner}`;
      if (omitted(item)) yield 'null';
      else yield* open(item, inner);
      continue;
    }
    if (frame.index >= frame.keys.length) {
      stack.pop();
      seen.delete(frame.source);
      yield frame.wrote ? `\n${frame.indent}}` : '}';
      continue;
    }
    const key = frame.keys[frame.index++] as string;
    const item = prepare(frame.source[key], key);
    if (omitted(item)) continue;
    yield `${frame.wrote ? ',\n' : '\n'}${inner}${JSON.stringify(key)}: `;
    frame.wrote = true;
    yield* open(item, inner);
  }
}
