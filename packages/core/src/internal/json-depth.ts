/**
 * Depth limits for parsed JSON. `JSON.parse` accepts values thousands of levels deep, but every recursive walk after
 * it (typing results, dropping `undefined`, shrinking, `JSON.stringify`) would overflow the stack. Values are capped
 * once, right after parsing, so everything downstream can recurse safely. Internal: not re-exported.
 */

/** Deepest nesting kept as structure; a value deeper than this is replaced by its (clipped) JSON text. */
export const MAX_JSON_DEPTH = 100;

/** The message of a `too_deep` issue: `replaced` parts of a line were deeper than the limit. */
export const tooDeepMessage = (replaced: number): string =>
  `value nested deeper than ${MAX_JSON_DEPTH} levels: ${replaced} part(s) kept as clipped JSON text`;

/** Longest JSON text kept in place of a too-deep value (the whole line stays in the transcript file). */
export const MAX_DEEP_TEXT = 4096;

export interface DepthCap {
  /** The same value when it was shallow enough; otherwise it, with every too-deep container replaced by text. */
  readonly value: unknown;
  /** How many containers were replaced by text (0: the value is unchanged). */
  readonly replaced: number;
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** Depth of a JSON value (a scalar is 0, `[]` is 1, `[[1]]` is 2), without recursion. */
export function jsonDepth(value: unknown): number {
  if (!isContainer(value)) return 0;
  let deepest = 0;
  const stack: [Container, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > deepest) deepest = depth;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (isContainer(child)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Cap a freshly parsed JSON value at `maxDepth` levels: a container that would sit deeper is replaced, in place, by
 * its JSON text clipped to `MAX_DEEP_TEXT` characters. Iterative: never overflows the stack, whatever the depth.
 * Meant for values this code owns (just parsed); shallow values are returned untouched.
 *
 * @example
 * capDepth(JSON.parse('[[[1]]]'), 2) // { value: [['[1]']], replaced: 1 }
 */
export function capDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): DepthCap {
  if (!isContainer(value)) return { value, replaced: 0 };
  if (maxDepth < 1) return { value: clippedJsonText(value, MAX_DEEP_TEXT), replaced: 1 };
  let replaced = 0;
  // Parallel stacks (no tuple per node): this walk runs over every parsed line.
  const nodes: Container[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as Container;
    const depth = depths.pop() as number;
    const tooDeep = depth + 1 > maxDepth;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i += 1) {
        const child: unknown = node[i];
        if (typeof child !== 'object' || child === null) continue;
        if (tooDeep) {
          node[i] = clippedJsonText(child, MAX_DEEP_TEXT);
          replaced += 1;
        } else {
          nodes.push(child as Container);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const child = node[key];
        if (typeof child !== 'object' || child === null) continue;
        if (tooDeep) {
          // defineProperty, not assignment: `node.__proto__ = text` would hit the prototype setter and keep the
          // deep own property JSON.parse made.
          Object.defineProperty(node, key, {
            value: clippedJsonText(child, MAX_DEEP_TEXT),
            writable: true,
            enumerable: true,
            configurable: true,
          });
          replaced += 1;
        } else {
          nodes.push(child as Container);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { value, replaced };
}

type Work = { readonly text: string } | { readonly value: unknown };

/**
 * `JSON.stringify(value)` computed without recursion and stopped after `maxChars` characters (an ellipsis marks the
 * cut). Keys whose values are `undefined` or functions are skipped, as `JSON.stringify` does.
 */
export function clippedJsonText(value: unknown, maxChars: number): string {
  let out = '';
  const work: Work[] = [{ value }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if (out.length > maxChars) break;
    if ('text' in item) {
      out += item.text;
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      const parts: Work[] = [{ text: '[' }];
      // Each element takes at least one character: more than `maxChars` of them are never reached.
      const count = Math.min(v.length, maxChars + 1);
      for (let i = 0; i < count; i += 1) {
        if (i > 0) parts.push({ text: ',' });
        const element: unknown = v[i];
        parts.push(isSkipped(element) ? { text: 'null' } : { value: element });
      }
      parts.push({ text: ']' });
      for (let i = parts.length - 1; i >= 0; i -= 1) work.push(parts[i] as Work);
    } else if (isContainer(v)) {
      const parts: Work[] = [{ text: '{' }];
      let first = true;
      for (const [key, element] of Object.entries(v)) {
        if (parts.length > 2 * maxChars + 2) break;
        if (isSkipped(element)) continue;
        parts.push({ text: `${first ? '' : ','}${JSON.stringify(key)}:` }, { value: element });
        first = false;
      }
      parts.push({ text: '}' });
      for (let i = parts.length - 1; i >= 0; i -= 1) work.push(parts[i] as Work);
    } else {
      out += JSON.stringify(v) ?? 'null';
    }
  }
  return out.length > maxChars ? `${out.slice(0, maxChars)}…` : out;
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
