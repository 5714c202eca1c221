import { countLines, plural, readSpan } from '@agentdash/core/present';
import { fmtBytes } from '../ui/format';
import {
  CodeLines,
  Hunks,
  Images,
  inputOf,
  KV,
  ok,
  type RendererProps,
  resultImages,
  resultText,
  Section,
  SimpleDiff,
  stripReminders,
  typedOf,
} from './common';
import { NotebookOutput } from './notebook-output';

function FileHead({ path, badges }: { path: string | undefined; badges?: React.ReactNode }) {
  return (
    <div className="row">
      <span className="path">{path ?? '(no path)'}</span>
      {badges}
    </div>
  );
}

export function EditRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'edit');
  const patch = t?.structuredPatch ?? [];
  const replaceAll = t?.replaceAll === true || i.replaceAll === true;
  return (
    <div data-testid="renderer-Edit">
      <FileHead
        path={t?.filePath ?? i.filePath}
        badges={
          <>
            {ok(call) ? (
              // An edit that made the file (Gemini's replace of an empty string) says so, as Write's badge does.
              <span className={`badge ${t?.operation === 'create' ? 'ok' : 'neutral'}`}>
                {t?.operation ?? 'update'}
              </span>
            ) : (
              <span className="badge unanswered">not applied</span>
            )}
            {replaceAll && <span className="badge accent">replace all</span>}
            {t?.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8 }}>
        {ok(call) && patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : (
          <SimpleDiff oldText={i.oldString ?? ''} newText={i.newString ?? ''} testId="diff" />
        )}
      </div>
    </div>
  );
}

export function MultiEditRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'multi-edit');
  const patch = t?.structuredPatch ?? [];
  const edits = i.edits ?? [];
  return (
    <div data-testid="renderer-MultiEdit">
      <FileHead
        path={t?.filePath ?? i.filePath}
        badges={
          <>
            <span className="badge neutral">{plural(edits.length, 'edit')}</span>
            {t?.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8, display: 'flex', flexDirection: 'column', gap: 8 }}>
        {ok(call) && patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : (
          edits.map((edit, n) => (
            <SimpleDiff
              // biome-ignore lint/suspicious/noArrayIndexKey: edits of one call
              key={n}
              oldText={edit.oldString}
              newText={edit.newString}
              testId="diff"
            />
          ))
        )}
      </div>
    </div>
  );
}

export function WriteRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'write');
  const patch = t?.structuredPatch ?? [];
  const type = t?.operation;
  const content = t?.content ?? i.content ?? '';
  const isCreate = type === 'create' || (type === undefined && patch.length === 0);
  const before = t?.originalFile;
  return (
    <div data-testid="renderer-Write">
      <FileHead
        path={t?.filePath ?? i.filePath}
        badges={
          <>
            {type && <span className={`badge ${type === 'create' ? 'ok' : 'neutral'}`}>{type}</span>}
            <span className="dim" style={{ fontSize: 12 }}>
              {plural(countLines(content), 'line')} · {fmtBytes(content.length)}
            </span>
            {t?.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8 }}>
        {isCreate ? (
          <SimpleDiff oldText="" newText={content.replace(/\n$/, '')} testId="diff" />
        ) : patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : typeof before === 'string' ? (
          <SimpleDiff oldText={before.replace(/\n$/, '')} newText={content.replace(/\n$/, '')} testId="diff" />
        ) : (
          // An overwrite the client recorded neither a patch nor the earlier text of (Gemini CLI 0.20): drawn as all
          // added it would read as a new file.
          <>
            <div className="truncated-note" data-testid="write-unknown-before">
              The file was overwritten; its earlier text is not in the transcript. The new text:
            </div>
            <CodeLines text={content} />
          </>
        )}
      </div>
    </div>
  );
}

/**
 * `     1→text` / `1\ttext` lines as written in Read results, or `1. text` (Copilot CLI's `view`, its numbers one after
 * another) → text and first line number.
 */
export function parseNumbered(text: string): { text: string; start: number } | undefined {
  const lines = text.split('\n');
  const arrow = /^\s*(\d+)(?:→|\t)(.*)$/;
  const dotted = /^\s*(\d+)\. (.*)$/;
  const re = arrow.test(lines[0] ?? '') ? arrow : dotted;
  const first = re.exec(lines[0] ?? '');
  if (!first) return undefined;
  const start = Number(first[1]);
  const out: string[] = [];
  for (const line of lines) {
    const m = re.exec(line);
    // `1. ` is also how a list is written: line numbers only when every line counts on by one
    if (!m || (re === dotted && Number(m[1]) !== start + out.length)) break;
    out.push(m[2] ?? '');
  }
  // a list (its numbers skip, or a line is not one of them) is text as written
  if (re === dotted && out.length < lines.length) return undefined;
  return { text: out.join('\n'), start };
}

export function ReadRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const file = typedOf(call, 'read');
  const images = resultImages(call);
  const path = file?.filePath ?? i.filePath;
  const offset = i.offset;
  const limit = i.limit;
  if (!ok(call)) {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} />
      </div>
    );
  }
  if (file?.variant === 'image' || images.length > 0) {
    const image = file?.variant === 'image' ? file : undefined;
    const width = image?.dimensions?.originalWidth;
    return (
      <div data-testid="renderer-Read">
        <FileHead
          path={path}
          badges={
            <>
              <span className="badge accent">image</span>
              {width !== undefined && (
                <span className="dim" style={{ fontSize: 12 }}>
                  {width}×{image?.dimensions?.originalHeight} · {fmtBytes(image?.originalSize)}
                </span>
              )}
            </>
          }
        />
        <div style={{ marginTop: 8 }}>
          <Images images={images} />
        </div>
      </div>
    );
  }
  if (file?.variant === 'notebook') {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge accent">notebook · {file.cells.length} cells</span>} />
        <div style={{ marginTop: 8, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {file.cells.map((cell, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: cells of one notebook
            <div key={n}>
              <div className="section-label">
                [{cell.cellId ?? n}] {cell.cellType}
                {typeof cell.executionCount === 'number' && ` · exec ${cell.executionCount}`}
              </div>
              <CodeLines text={cell.source} />
              {cell.outputs?.map((output, k) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: outputs of one cell
                <NotebookOutput key={k} output={output} />
              ))}
            </div>
          ))}
        </div>
      </div>
    );
  }
  if (file?.variant === 'pdf' || file?.variant === 'parts') {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge accent">{file.variant}</span>} />
        <KV
          rows={[
            ['size', fmtBytes(file.originalSize)],
            ['pages', file.variant === 'parts' ? file.count : undefined],
          ]}
        />
      </div>
    );
  }
  if (file?.variant === 'file_unchanged') {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge neutral">unchanged since the last read</span>} />
      </div>
    );
  }
  const typedText = file?.variant === 'text' ? file : undefined;
  const content = typedText?.content;
  const numbered = content === undefined ? parseNumbered(stripReminders(resultText(call.result?.content))) : undefined;
  const text = content ?? numbered?.text ?? stripReminders(resultText(call.result?.content));
  const start = typedText?.startLine ?? numbered?.start ?? offset ?? 1;
  const span = readSpan(text, start, typedText?.numLines, typedText?.totalLines);
  // Nothing read (an empty file, an offset past its end): the client's own word on it, which is its whole result
  // ("the file exists but is shorter than the provided offset (500). The file has 31 lines.").
  const said = text === '' ? clientNote(resultText(call.result?.content)) : undefined;
  return (
    <div data-testid="renderer-Read">
      <FileHead
        path={path}
        badges={
          <span className="dim" style={{ fontSize: 12 }}>
            {text === '' ? 'nothing read' : `lines ${span.start}–${span.end}`}
            {text !== '' && span.total !== undefined ? ` of ${span.total}` : ''}
            {(offset !== undefined || limit !== undefined) && ` · offset ${offset ?? 0}, limit ${limit ?? '∞'}`}
          </span>
        }
      />
      <div style={{ marginTop: 8 }}>
        {text ? (
          <CodeLines text={text} start={start} />
        ) : (
          <span className="dim" data-testid="read-nothing">
            {said ?? '(empty file)'}
          </span>
        )}
      </div>
    </div>
  );
}

export function NotebookEditRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'notebook-edit');
  const mode = t?.editMode ?? i.editMode ?? 'replace';
  const oldSource = t?.oldSource;
  const newSource = t?.newSource ?? i.newSource ?? '';
  const cellType = t?.cellType ?? i.cellType;
  return (
    <div data-testid="renderer-NotebookEdit">
      <FileHead
        path={t?.notebookPath ?? i.filePath}
        badges={
          <>
            <span className="badge neutral">{mode}</span>
            <span className="badge accent">cell {t?.cellId ?? i.cellId ?? '?'}</span>
            {cellType && <span className="pill">{cellType}</span>}
            {t?.language && <span className="pill">{t.language}</span>}
          </>
        }
      />
      <div style={{ marginTop: 8 }}>
        <Section label={mode === 'delete' ? 'Deleted cell' : 'Cell source'}>
          <SimpleDiff oldText={oldSource ?? ''} newText={mode === 'delete' ? '' : newSource} testId="diff" />
        </Section>
      </div>
    </div>
  );
}

/** The words of the client's note in a result (`<system-reminder>Warning: …</system-reminder>`), "Warning: " off. */
function clientNote(raw: string): string | undefined {
  const note = /<system-reminder>([\s\S]*?)<\/system-reminder>/.exec(raw)?.[1]?.trim();
  return note === undefined || note === '' ? undefined : note.replace(/^Warning:\s*/, '');
}
