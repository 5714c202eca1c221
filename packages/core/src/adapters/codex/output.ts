import { isRecord, num, str } from '../../internal/guards.js';
import { type ImageValue, type ResultBlock, type ResultContent, resultText } from '../../model/content.js';

/** A tool output as Codex wrote it, with the facts its textual styles carry. */
export interface CodexOutput {
  /** The output for display: the text without its header, or blocks (text and images). */
  readonly content: ResultContent;
  /** The command's exit code, when the output says it ("exit_code", "Exit code: N", "Process exited with code N"). */
  readonly exitCode: number | undefined;
  /** "Process running with session ID N": the command had not exited when the call returned; later calls reach it by N. */
  readonly runningSessionId: string | undefined;
  /** "Wall time" / `duration_seconds`, in seconds. */
  readonly wallTimeSeconds: number | undefined;
  /** Which of the known styles the output had. */
  readonly style: 'json-metadata' | 'exit-code-header' | 'chunk-header' | 'sandbox-exit' | 'blocks' | 'text';
}

/**
 * A command that exited non-zero in the sandbox, as clients up to 0.46 wrote it: they took any non-zero exit there for
 * the sandbox's denial (`failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code:
 * 1, stdout: …, stderr: …`, or Rust's `Denied { output: ExecToolCallOutput { exit_code: 128, …`), a failing test run
 * and a syntax error alike (../shared/wild-agents: 40 such calls, most of them no denial). The text is kept whole.
 */
const SANDBOX_EXIT =
  /^failed in sandbox \S+ with execution error: (?:sandbox denied exec error, exit code: |Denied \{ output: ExecToolCallOutput \{ exit_code: )(-?\d+)/;

/** Rust's debug form of a stream in a sandbox's `Denied { … }`: `stdout: StreamOutput { text: "…"`. */
const debugStream = (name: string) => new RegExp(`\\b${name}: StreamOutput \\{ text: "((?:[^"\\\\]|\\\\.)*)"`);
const DEBUG_STDOUT = debugStream('stdout');
/** The longest report read for its two streams (characters). */
const MAX_SANDBOX_REPORT = 1 << 20;
const DEBUG_STDERR = debugStream('stderr');
const DEBUG_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '0': '\0' };

/**
 * The command's own stdout and stderr in a sandbox's report of its non-zero exit (`SANDBOX_EXIT`): `…, stdout: <out>,
 * stderr: <err>` (the last `, stderr: ` splits them), or Rust's `stdout: StreamOutput { text: "<out>", … }` with its
 * escapes read; undefined when the report has neither.
 */
export function sandboxStreams(text: string): { readonly stdout: string; readonly stderr: string } | undefined {
  // a report the client cut at ~10 KiB; a longer text is not searched by the backtracking pattern below
  if (text.length > MAX_SANDBOX_REPORT) return undefined;
  const out = DEBUG_STDOUT.exec(text);
  const err = DEBUG_STDERR.exec(text);
  if (out !== null || err !== null)
    return { stdout: unescapeDebug(out?.[1] ?? ''), stderr: unescapeDebug(err?.[1] ?? '') };
  const start = text.indexOf(', stdout: ');
  const split = text.lastIndexOf(', stderr: ');
  if (start < 0 || split < start) return undefined;
  return { stdout: text.slice(start + ', stdout: '.length, split), stderr: text.slice(split + ', stderr: '.length) };
}

function unescapeDebug(text: string): string {
  return text.replace(/\\(u\{([0-9a-fA-F]{1,6})\}|.)/g, (whole, sequence: string, hex: string | undefined) => {
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return DEBUG_ESCAPES[sequence] ?? sequence;
  });
}

const HEADER_LINE =
  /^(Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Command|Exit code|Total output lines)\b:?/;

/** The types of an output's content items (`fromBlocks`). */
const CONTENT_ITEM_TYPES = new Set(['input_text', 'output_text', 'text', 'input_image']);

/** Read one `function_call_output` / `custom_tool_call_output` `output` value in any recorded style. */
export function parseCodexOutput(output: unknown): CodexOutput {
  if (Array.isArray(output)) return fromBlocks(output);
  if (isRecord(output)) {
    // One content item where a list of them is usual (`{"type":"input_text","text":…}`): read as that list.
    if (CONTENT_ITEM_TYPES.has(str(output.type) ?? '')) return fromBlocks([output]);
    // Some writers store the object itself instead of its JSON text.
    const content = str(output.content) ?? str(output.output);
    if (content !== undefined) return fromText(content);
    return {
      content: JSON.stringify(output),
      exitCode: undefined,
      runningSessionId: undefined,
      wallTimeSeconds: undefined,
      style: 'text',
    };
  }
  return fromText(typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(output));
}

function fromText(text: string): CodexOutput {
  const trimmed = text.trimStart();
  const sandboxed = SANDBOX_EXIT.exec(trimmed);
  if (sandboxed !== null)
    return {
      content: text,
      exitCode: Number(sandboxed[1]),
      runningSessionId: undefined,
      wallTimeSeconds: undefined,
      style: 'sandbox-exit',
    };
  if (trimmed.startsWith('{') && trimmed.includes('"output"')) {
    const parsed = parseJson(trimmed);
    if (isRecord(parsed) && typeof parsed.output === 'string') {
      const metadata = isRecord(parsed.metadata) ? parsed.metadata : {};
      return {
        content: parsed.output,
        exitCode: num(metadata.exit_code),
        runningSessionId: undefined,
        wallTimeSeconds: num(metadata.duration_seconds),
        style: 'json-metadata',
      };
    }
  }
  return fromHeader(text);
}

/** `Exit code: N\nWall time: X seconds\nOutput:\n…` or `Chunk ID: …\nWall time: …\nProcess exited with code N\n…`. */
function fromHeader(text: string): CodexOutput {
  const lines = text.split('\n');
  let exitCode: number | undefined;
  let runningSessionId: string | undefined;
  let wallTime: number | undefined;
  let chunk = false;
  let body = -1;
  for (let i = 0; i < Math.min(lines.length, 12); i += 1) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line === 'Output:') {
      body = i + 1;
      break;
    }
    if (!HEADER_LINE.test(line)) break;
    if (line.startsWith('Chunk ID')) chunk = true;
    const exit = /^(?:Exit code:|Process exited with code) (-?\d+)/.exec(line);
    if (exit) exitCode = Number(exit[1]);
    const running = /^Process running with session ID (\S+)/.exec(line);
    if (running) runningSessionId = running[1];
    const wall = /^Wall time: ([\d.]+)/.exec(line);
    if (wall) wallTime = Number(wall[1]);
  }
  if (body < 0)
    return {
      content: text,
      exitCode: undefined,
      runningSessionId: undefined,
      wallTimeSeconds: undefined,
      style: 'text',
    };
  return {
    content: lines.slice(body).join('\n'),
    exitCode,
    runningSessionId,
    wallTimeSeconds: wallTime,
    style: chunk ? 'chunk-header' : 'exit-code-header',
  };
}

function fromBlocks(items: readonly unknown[]): CodexOutput {
  const blocks: ResultBlock[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const type = str(item.type) ?? 'unknown';
    if ((type === 'input_text' || type === 'output_text' || type === 'text') && typeof item.text === 'string') {
      blocks.push({ kind: 'text', text: item.text });
      continue;
    }
    const image = type === 'input_image' ? imageOf(item.image_url) : undefined;
    blocks.push(image ?? { kind: 'unknown', type, raw: item });
  }
  // 0.144+ puts the header in the first text block.
  const first = blocks[0];
  if (first?.kind === 'text') {
    const head = fromHeader(first.text);
    if (head.style !== 'text') {
      const rest =
        typeof head.content === 'string' && head.content !== '' ? [{ kind: 'text' as const, text: head.content }] : [];
      return {
        content: [...rest, ...blocks.slice(1)],
        exitCode: head.exitCode,
        runningSessionId: head.runningSessionId,
        wallTimeSeconds: head.wallTimeSeconds,
        style: 'blocks',
      };
    }
  }
  return {
    content: blocks,
    exitCode: undefined,
    runningSessionId: undefined,
    wallTimeSeconds: undefined,
    style: 'blocks',
  };
}

/**
 * An output that answers no call, as a note's text (its tool's name, its words): context for the model, such as 0.169's
 * goal tools write (no `call_id`, the line's metadata `additional_context_tool_output`).
 */
export function contextText(item: Record<string, unknown>): string {
  const text = resultText(parseCodexOutput(item.output).content);
  const tool = str(item.name);
  return tool === undefined ? text : `${tool}: ${text}`;
}

/** An MCP result's content parts as blocks, in order: its texts, and its images (`{type: "image", data, mimeType}`). */
export function mcpContentBlocks(content: unknown): ResultBlock[] {
  const blocks: ResultBlock[] = [];
  for (const part of Array.isArray(content) ? content.filter(isRecord) : []) {
    if (typeof part.text === 'string') blocks.push({ kind: 'text', text: part.text });
    const image = part.type === 'image' ? imageOf(`data:${str(part.mimeType)};base64,${str(part.data)}`) : undefined;
    if (image !== undefined) blocks.push(image);
  }
  return blocks;
}

/** A `data:<type>;base64,<data>` URL as an image; other URLs are not images we hold. */
export function imageOf(url: unknown): ImageValue | undefined {
  if (typeof url !== 'string') return undefined;
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { kind: 'image', mediaType: match[1] ?? 'image/png', data: match[2] ?? '' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
