import { plainText, replacementLines } from '@agentdash/core/present';
import { type ReactNode, useState } from 'react';
import type {
  CallDto,
  CallInput,
  DataKind,
  ImageValue,
  ResultContent,
  ResultData,
  TypedResult,
  TypedResultKind,
} from '../data/types';
import { Ansi } from '../ui/Ansi';
import { arr, formatTypedChars, isObj, num, obj, str } from '../ui/format';

export interface RendererProps {
  readonly call: CallDto;
}

/** The call's input as written, for the views that show every field generically (no field is read by name). */
export const rawInput = (call: CallDto) => obj(call.input);
/** The call's input under the shared names (`CallInput`): what renderers read of the input. */
export const inputOf = (call: CallDto): CallInput => call.typedInput ?? {};
/** Whether a typed result is of `kind` (the union narrows by a literal kind, not by a generic one). */
function isKind<K extends DataKind>(
  typed: TypedResult | undefined,
  kind: K,
): typed is TypedResult & { readonly kind: K; readonly data: ResultData<K> } {
  return typed?.kind === kind;
}

/** The typed data of a call's result when core typed it as `kind`: what a renderer reads. */
export function typedOf<K extends DataKind>(call: CallDto, kind: K): ResultData<K> | undefined {
  const typed = call.result?.typed;
  return isKind(typed, kind) ? typed.data : undefined;
}
/**
 * The kind a call is shown as: its typed result's kind, else (running, failed, unanswered) the kind its tool's
 * results are typed onto, else `error` or `unknown`.
 */
export function renderKindOf(call: CallDto): TypedResultKind {
  const typed = call.result?.typed;
  if (typed !== undefined && typed.kind !== 'error' && typed.kind !== 'unknown') return typed.kind;
  return call.toolKind ?? typed?.kind ?? 'unknown';
}

export const ok = (call: CallDto) => call.result !== null && !call.result.isError;

export function resultText(content: ResultContent | undefined | null): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const b of content) {
    if (b.kind === 'text') parts.push(b.text);
    else if (b.kind === 'search-result') parts.push(b.text);
  }
  return parts.join('\n');
}

/** Strips the client's `<system-reminder>` trailers from tool output. */
export function stripReminders(text: string): string {
  return text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, '\n').trimEnd();
}

export function Section({ label, extra, children }: { label: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <div className="section-label">
        {label}
        {extra}
      </div>
      {children}
    </div>
  );
}

export function KV({ rows }: { rows: readonly (readonly [string, ReactNode] | false | null | undefined)[] }) {
  const shown = rows.filter(
    (r): r is readonly [string, ReactNode] => !!r && r[1] !== undefined && r[1] !== null && r[1] !== '',
  );
  if (shown.length === 0) return null;
  return (
    <dl className="kv">
      {shown.map(([k, v]) => (
        <div key={k} style={{ display: 'contents' }}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Plain({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="code" data-testid={testId}>
      <pre>
        <Ansi text={text} />
      </pre>
    </div>
  );
}

/**
 * Column headers a screen reader announces with each cell and nobody sees (a diff's or a file's rows say what their
 * columns are by their look: numbers in the gutter, the sign's colour).
 */
function UnseenHead({ names }: { names: readonly string[] }) {
  return (
    <thead className="sr-only-head">
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Text with line numbers starting at `start`. */
export function CodeLines({ text, start = 1 }: { text: string; start?: number }) {
  const lines = plainText(text).replace(/\n$/, '').split('\n');
  return (
    <div className="code">
      <table>
        <UnseenHead names={['Line', 'Text']} />
        <tbody>
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one static text
            <tr key={i}>
              <td className="ln">{start + i}</td>
              <td>{line}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * What a call without a result says in place of its output: still running (a live session), that the
 * conversation went on without one, or that the session ends before one came; undefined once it has its result.
 */
export function awaitingText(call: CallDto): string | undefined {
  if (call.result !== null) return undefined;
  if (call.status === 'pending') return 'Running: waiting for its result.';
  if (call.status !== 'unanswered') return undefined;
  switch (call.noResult) {
    case 'conversation-went-on':
      return 'No result: the conversation went on without one.';
    case 'session-ended':
      return 'No result: the session ends before one came (interrupted, killed or cut off).';
    default:
      return 'No result was recorded.';
  }
}

/** The line a call without its result shows where its output would be. */
export function AwaitingNote({ call }: { call: CallDto }) {
  const text = awaitingText(call);
  return text === undefined ? null : (
    <div className="dim" data-testid="awaiting" style={{ fontSize: 12.5 }}>
      {text}
    </div>
  );
}

export function Terminal({
  command,
  stdin,
  stdout,
  stderr,
  badges,
  empty = '(no output)',
  testId,
}: {
  command?: string | undefined;
  /** Characters the call typed into a running process, as written: shown with control characters visible. */
  stdin?: string | undefined;
  stdout?: string | undefined;
  stderr?: string | undefined;
  badges?: ReactNode;
  /** What it says when the command wrote nothing (or has no result yet). */
  empty?: string | undefined;
  testId?: string;
}) {
  return (
    <div className="terminal" data-testid={testId}>
      {command !== undefined && (
        <div className="cmd-row">
          <pre className="cmd">
            <span className="prompt-sign">$ </span>
            {command}
          </pre>
          {badges && <div className="cmd-badges">{badges}</div>}
        </div>
      )}
      {stdin !== undefined && (
        <pre className="stdin" data-testid="stdin" title="Characters typed into the process, control characters shown">
          {stdin === '' ? (
            <span className="dim">nothing typed: reads its output</span>
          ) : (
            <>
              <span className="prompt-sign">typed </span>
              {formatTypedChars(stdin)}
            </>
          )}
        </pre>
      )}
      {stdout ? (
        <pre>
          <Ansi text={stdout} />
        </pre>
      ) : null}
      {stderr ? (
        <pre className="stderr">
          <Ansi text={stderr} />
        </pre>
      ) : null}
      {!stdout && !stderr && command !== undefined && (
        <pre className="dim" data-testid="terminal-empty">
          {empty}
        </pre>
      )}
    </div>
  );
}

/** Base64 as a data URL holds it (line breaks allowed): a text that is not (a secret redacted in it, a fixture's
 * "[trimmed]") is no image, and the browser would show a broken one. Tested without its white space, by a pattern
 * of one pass: white space inside the one before made a long run of it take seconds (quadratic backtracking). */
const isBase64 = (data: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(data.replace(/\s+/g, ''));

/** The raster types a page shows from a transcript's data (the type is the log's word: never SVG or HTML). */
const isShownImageType = (mediaType: string) => /^image\/(png|jpe?g|gif|webp)$/.test(mediaType);

/**
 * An image of a transcript (a prompt's attachment, a tool result's), or in its place a note that it cannot be shown
 * when its data is not base64 or does not decode as an image.
 */
export function LoggedImage({ img, alt, testId }: { img: ImageValue; alt: string; testId: string }) {
  const [broken, setBroken] = useState(false);
  if (broken || img.data === '' || !isShownImageType(img.mediaType) || !isBase64(img.data)) {
    return (
      <span className="img-missing" data-testid={`${testId}-missing`}>
        {alt}: not shown, its data in the transcript is not a readable image
      </span>
    );
  }
  return (
    <img
      className="img-result"
      src={`data:${img.mediaType};base64,${img.data}`}
      alt={alt}
      data-testid={testId}
      onError={() => setBroken(true)}
    />
  );
}

/** Images of a result: from the model's image values, else from raw `{type:'image', source}` blocks. */
export function resultImages(call: CallDto): ImageValue[] {
  const out: ImageValue[] = [...(call.result?.images ?? [])];
  if (out.length === 0 && Array.isArray(call.result?.content)) {
    for (const b of call.result.content) if (b.kind === 'image') out.push(b);
  }
  return out.filter((i) => isShownImageType(i.mediaType));
}

export function Images({ images }: { images: readonly ImageValue[] }) {
  if (images.length === 0) return null;
  return (
    <div className="row">
      {images.map((img, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: images of one result
        <LoggedImage key={i} img={img} alt={`result ${i + 1}`} testId="result-image" />
      ))}
    </div>
  );
}

export function Hunks({ patch, testId }: { patch: readonly unknown[]; testId?: string }) {
  return (
    <div className="diff" data-testid={testId}>
      <table>
        <UnseenHead names={['Old line', 'New line', 'Change', 'Text']} />
        <tbody>
          {patch.map((h, hi) => {
            const hunk = obj(h);
            // A hunk as an agent wrote it (Codex apply_patch) has no line numbers: its lines get none, not made-up ones.
            let oldLn = num(hunk.oldStart);
            let newLn = num(hunk.newStart);
            const lines = arr(hunk.lines).map((l) => String(l));
            return [
              // biome-ignore lint/suspicious/noArrayIndexKey: hunks of one static patch
              <tr key={`h${hi}`} className="hunk">
                <td colSpan={4}>
                  {num(hunk.oldStart) === undefined
                    ? `@@ ${str(hunk.header) ?? ''} @@`
                    : `@@ -${num(hunk.oldStart)},${num(hunk.oldLines)} +${num(hunk.newStart)},${num(hunk.newLines)} @@`}
                </td>
              </tr>,
              ...lines.map((line, li) => {
                const sign = line[0];
                const text = line.slice(1);
                let o = '';
                let n = '';
                let cls = '';
                const nextOld = () => (oldLn === undefined ? '' : String(oldLn++));
                const nextNew = () => (newLn === undefined ? '' : String(newLn++));
                if (sign === '-') {
                  o = nextOld();
                  cls = 'del';
                } else if (sign === '+') {
                  n = nextNew();
                  cls = 'add';
                } else if (sign === '\\') {
                  cls = 'meta';
                } else {
                  o = nextOld();
                  n = nextNew();
                }
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines of one static hunk
                  <tr key={`${hi}-${li}`} className={cls}>
                    <td className="ln">{o}</td>
                    <td className="ln">{n}</td>
                    <td className="sign">{sign === '-' || sign === '+' ? sign : ' '}</td>
                    <td className="code-cell">{text}</td>
                  </tr>
                );
              }),
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A diff from two strings without a patch: old lines removed, new lines added. */
/**
 * An edit's replacement as its line diff (core's `replacementLines`): the lines it keeps, removes and adds; where in
 * the file is not known, so no line numbers.
 */
export function SimpleDiff({ oldText, newText, testId }: { oldText: string; newText: string; testId?: string }) {
  const lines = replacementLines(oldText, newText);
  return (
    <div className="diff" data-testid={testId}>
      <table>
        <UnseenHead names={['Change', 'Text']} />
        <tbody>
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static lines
            <tr key={i} className={line[0] === '-' ? 'del' : line[0] === '+' ? 'add' : undefined}>
              <td className="sign">{line[0] === ' ' ? '' : line[0]}</td>
              <td className="code-cell">{line.slice(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { arr, isObj, num, obj, str };
