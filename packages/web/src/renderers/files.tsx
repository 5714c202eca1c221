import { fmtBytes } from '../ui/format';
import {
  arr,
  CodeLines,
  Hunks,
  Images,
  input,
  KV,
  num,
  obj,
  ok,
  type RendererProps,
  resultImages,
  resultText,
  Section,
  SimpleDiff,
  str,
  stripReminders,
  tur,
  typedData,
} from './common';

function FileHead({ path, badges }: { path: string | undefined; badges?: React.ReactNode }) {
  return (
    <div className="row">
      <span className="path">{path ?? '(no path)'}</span>
      {badges}
    </div>
  );
}

export function EditRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const patch = arr(t.structuredPatch);
  const replaceAll = t.replaceAll === true || i.replace_all === true;
  return (
    <div data-testid="renderer-Edit">
      <FileHead
        path={str(t.filePath) ?? str(i.file_path)}
        badges={
          <>
            {ok(call) ? (
              <span className="badge neutral">update</span>
            ) : (
              <span className="badge unanswered">not applied</span>
            )}
            {replaceAll && <span className="badge accent">replace all</span>}
            {t.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8 }}>
        {ok(call) && patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : (
          <SimpleDiff oldText={str(i.old_string) ?? ''} newText={str(i.new_string) ?? ''} testId="diff" />
        )}
      </div>
    </div>
  );
}

export function MultiEditRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const patch = arr(t.structuredPatch);
  const edits = arr(i.edits);
  return (
    <div data-testid="renderer-MultiEdit">
      <FileHead
        path={str(t.filePath) ?? str(i.file_path)}
        badges={
          <>
            <span className="badge neutral">{edits.length} edits</span>
            {t.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8, display: 'flex', flexDirection: 'column', gap: 8 }}>
        {ok(call) && patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : (
          edits.map((e, n) => {
            const edit = obj(e);
            return (
              <SimpleDiff
                // biome-ignore lint/suspicious/noArrayIndexKey: edits of one call
                key={n}
                oldText={str(edit.old_string) ?? ''}
                newText={str(edit.new_string) ?? ''}
                testId="diff"
              />
            );
          })
        )}
      </div>
    </div>
  );
}

export function WriteRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const patch = arr(t.structuredPatch);
  const type = str(t.type) ?? (ok(call) ? undefined : undefined);
  const content = str(t.content) ?? str(i.content) ?? '';
  const isCreate = type === 'create' || (type === undefined && patch.length === 0);
  return (
    <div data-testid="renderer-Write">
      <FileHead
        path={str(t.filePath) ?? str(i.file_path)}
        badges={
          <>
            {type && <span className={`badge ${type === 'create' ? 'ok' : 'neutral'}`}>{type}</span>}
            <span className="dim" style={{ fontSize: 12 }}>
              {content.split('\n').length} lines · {fmtBytes(content.length)}
            </span>
            {t.userModified === true && <span className="badge unanswered">user modified</span>}
          </>
        }
      />
      <div style={{ marginTop: 8 }}>
        {!isCreate && patch.length > 0 ? (
          <Hunks patch={patch} testId="diff" />
        ) : (
          <SimpleDiff oldText="" newText={content.replace(/\n$/, '')} testId="diff" />
        )}
      </div>
    </div>
  );
}

/** `     1→text` / `1\ttext` lines as written in Read results → text and first line number. */
function parseNumbered(text: string): { text: string; start: number } | undefined {
  const lines = text.split('\n');
  const re = /^\s*(\d+)(?:→|\t)(.*)$/;
  const first = re.exec(lines[0] ?? '');
  if (!first) return undefined;
  const out: string[] = [];
  for (const line of lines) {
    const m = re.exec(line);
    if (!m) break;
    out.push(m[2] ?? '');
  }
  return { text: out.join('\n'), start: Number(first[1]) };
}

export function ReadRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const file = obj(t.file);
  const type = str(t.type);
  const images = resultImages(call);
  const path = str(file.filePath) ?? str(i.file_path);
  const offset = num(i.offset);
  const limit = num(i.limit);
  if (!ok(call)) {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} />
      </div>
    );
  }
  if (type === 'image' || images.length > 0) {
    const dims = obj(file.dimensions);
    return (
      <div data-testid="renderer-Read">
        <FileHead
          path={path}
          badges={
            <>
              <span className="badge accent">image</span>
              {num(dims.originalWidth) !== undefined && (
                <span className="dim" style={{ fontSize: 12 }}>
                  {num(dims.originalWidth)}×{num(dims.originalHeight)} · {fmtBytes(num(file.originalSize))}
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
  if (type === 'notebook') {
    const cells = arr(file.cells).map(obj);
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge accent">notebook · {cells.length} cells</span>} />
        <div style={{ marginTop: 8, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {cells.map((cell, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: cells of one notebook
            <div key={n}>
              <div className="section-label">
                [{str(cell.cell_id) ?? n}] {str(cell.cellType) ?? str(cell.cell_type)}
                {num(cell.execution_count) !== undefined && ` · exec ${num(cell.execution_count)}`}
              </div>
              <CodeLines text={str(cell.source) ?? ''} />
            </div>
          ))}
        </div>
      </div>
    );
  }
  if (type === 'pdf' || type === 'parts') {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge accent">{type}</span>} />
        <KV
          rows={[
            ['size', fmtBytes(num(file.originalSize))],
            ['pages', num(file.numPages) ?? num(file.count)],
          ]}
        />
      </div>
    );
  }
  const typed = typedData(call, 'read');
  if (typed?.variant === 'file_unchanged') {
    return (
      <div data-testid="renderer-Read">
        <FileHead path={path} badges={<span className="badge neutral">unchanged since the last read</span>} />
      </div>
    );
  }
  const typedText = typed?.variant === 'text' ? typed : undefined;
  const content = str(file.content) ?? str(typedText?.content);
  const numbered = content === undefined ? parseNumbered(stripReminders(resultText(call.result?.content))) : undefined;
  const text = content ?? numbered?.text ?? stripReminders(resultText(call.result?.content));
  const start = num(file.startLine) ?? num(typedText?.startLine) ?? numbered?.start ?? offset ?? 1;
  const numLines = num(file.numLines) ?? num(typedText?.numLines) ?? text.split('\n').length;
  const total = num(file.totalLines) ?? num(typedText?.totalLines);
  return (
    <div data-testid="renderer-Read">
      <FileHead
        path={path}
        badges={
          <span className="dim" style={{ fontSize: 12 }}>
            lines {start}–{start + Math.max(0, numLines - 1)}
            {total !== undefined ? ` of ${total}` : ''}
            {(offset !== undefined || limit !== undefined) && ` · offset ${offset ?? 0}, limit ${limit ?? '∞'}`}
          </span>
        }
      />
      <div style={{ marginTop: 8 }}>
        {text ? <CodeLines text={text} start={start} /> : <span className="dim">(empty file)</span>}
      </div>
    </div>
  );
}

export function NotebookEditRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const mode = str(t.edit_mode) ?? str(i.edit_mode) ?? 'replace';
  const oldSource = str(t.old_source);
  const newSource = str(t.new_source) ?? str(i.new_source) ?? '';
  return (
    <div data-testid="renderer-NotebookEdit">
      <FileHead
        path={str(t.notebook_path) ?? str(i.notebook_path)}
        badges={
          <>
            <span className="badge neutral">{mode}</span>
            <span className="badge accent">cell {str(t.cell_id) ?? str(i.cell_id) ?? '?'}</span>
            {(str(t.cell_type) ?? str(i.cell_type)) && (
              <span className="pill">{str(t.cell_type) ?? str(i.cell_type)}</span>
            )}
            {str(t.language) && <span className="pill">{str(t.language)}</span>}
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
