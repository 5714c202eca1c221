import { fmtBytes, fmtDuration } from '../ui/format';
import { Markdown } from '../ui/Markdown';
import { arr, input, KV, num, obj, ok, Plain, type RendererProps, resultText, Section, str, tur } from './common';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function FileList({ files, more }: { files: readonly string[]; more?: number }) {
  return (
    <div className="list files">
      {files.map((f) => (
        <div className="item" key={f}>
          {f}
        </div>
      ))}
      {more !== undefined && more > 0 && <div className="item dim">… {more} more</div>}
    </div>
  );
}

export function GrepRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const mode = str(t.mode) ?? str(i.output_mode) ?? 'files_with_matches';
  const files = arr(t.filenames).map(String);
  const content = str(t.content);
  const numFiles = num(t.numFiles);
  const flags = ['-i', '-n', '-A', '-B', '-C', 'multiline']
    .filter((f) => i[f] !== undefined && i[f] !== false)
    .map((f) => (i[f] === true ? f : `${f} ${String(i[f])}`));
  const limit = num(t.appliedLimit);
  return (
    <div data-testid="renderer-Grep" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="mono" style={{ color: 'var(--warn)' }}>
          /{str(i.pattern)}/
        </span>
        {str(i.path) && <span className="path dim">in {str(i.path)}</span>}
        {str(i.glob) && <span className="pill">glob {str(i.glob)}</span>}
        {str(i.type) && <span className="pill">type {str(i.type)}</span>}
        <span className="badge neutral">{mode}</span>
        {flags.map((f) => (
          <span key={f} className="pill">
            {f}
          </span>
        ))}
      </div>
      {ok(call) && (
        <>
          <div className="row dim" style={{ fontSize: 12.5 }}>
            {numFiles !== undefined && <span data-testid="match-count">{plural(numFiles, 'file')}</span>}
            {num(t.numLines) !== undefined && <span>· {plural(num(t.numLines) ?? 0, 'line')}</span>}
            {num(t.numMatches) !== undefined && <span>· {plural(num(t.numMatches) ?? 0, 'match', 'matches')}</span>}
            {num(t.totalFiles) !== undefined && <span>· {num(t.totalFiles)} total</span>}
            {limit !== undefined && <span className="badge unanswered">limited to {limit}</span>}
          </div>
          {mode === 'content' && content !== undefined ? (
            <Plain text={content || '(no matches)'} />
          ) : mode === 'count' && content !== undefined ? (
            <Plain text={content} />
          ) : files.length > 0 ? (
            <FileList files={files} />
          ) : (
            <span className="dim">No matches.</span>
          )}
        </>
      )}
    </div>
  );
}

export function GlobRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const files = arr(t.filenames).map(String);
  const numFiles = num(t.numFiles) ?? files.length;
  const total = num(t.totalMatches);
  return (
    <div data-testid="renderer-Glob" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="mono" style={{ color: 'var(--warn)' }}>
          {str(i.pattern)}
        </span>
        {str(i.path) && <span className="path dim">in {str(i.path)}</span>}
      </div>
      {ok(call) && (
        <>
          <div className="row dim" style={{ fontSize: 12.5 }}>
            <span data-testid="match-count">{plural(numFiles, 'file')}</span>
            {total !== undefined && total !== numFiles && <span>· {total} matched</span>}
            {num(t.durationMs) !== undefined && <span>· {fmtDuration(num(t.durationMs))}</span>}
            {t.truncated === true && <span className="badge unanswered">truncated</span>}
          </div>
          {files.length > 0 ? <FileList files={files} /> : <span className="dim">No files.</span>}
        </>
      )}
    </div>
  );
}

interface Link {
  title: string;
  url: string;
}

export function WebSearchRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const links: Link[] = [];
  const notes: string[] = [];
  for (const r of arr(t.results)) {
    if (typeof r === 'string') notes.push(r);
    else
      for (const c of arr(obj(r).content)) {
        const l = obj(c);
        const url = str(l.url);
        if (url) links.push({ title: str(l.title) ?? url, url });
      }
  }
  const safe = (url: string) => /^https?:\/\//i.test(url);
  return (
    <div data-testid="renderer-WebSearch" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span style={{ fontWeight: 600 }}>“{str(i.query) ?? str(t.query)}”</span>
        {num(t.durationSeconds) !== undefined && (
          <span className="dim">{fmtDuration((num(t.durationSeconds) ?? 0) * 1000)}</span>
        )}
        {arr(i.allowed_domains).length > 0 && <span className="pill">only {arr(i.allowed_domains).join(', ')}</span>}
      </div>
      {links.length > 0 && (
        <div className="links" data-testid="search-links">
          {links.map((l, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: links of one result
            <div key={n}>
              {safe(l.url) ? (
                <a href={l.url} target="_blank" rel="noreferrer noopener">
                  {l.title}
                </a>
              ) : (
                <span>{l.title}</span>
              )}
              <div className="url">{l.url}</div>
            </div>
          ))}
        </div>
      )}
      {notes.length > 0 && <Markdown text={notes.join('\n\n')} />}
      {ok(call) && links.length === 0 && notes.length === 0 && <Plain text={resultText(call.result?.content)} />}
    </div>
  );
}

export function WebFetchRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const code = num(t.code);
  return (
    <div data-testid="renderer-WebFetch" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="path">{str(t.url) ?? str(i.url)}</span>
        {code !== undefined && (
          <span className={`badge ${code < 400 ? 'ok' : 'error'}`} data-testid="http-status">
            {code} {str(t.codeText)}
          </span>
        )}
        {num(t.bytes) !== undefined && <span className="dim">{fmtBytes(num(t.bytes))}</span>}
      </div>
      {str(i.prompt) && <KV rows={[['prompt', str(i.prompt)]]} />}
      {ok(call) && (
        <Section label="Summary">
          <Markdown text={str(t.result) ?? resultText(call.result?.content)} />
        </Section>
      )}
    </div>
  );
}

export function ToolSearchRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const matches = arr(t.matches).map(String);
  return (
    <div data-testid="renderer-ToolSearch" className="row">
      <span className="mono">{str(i.query)}</span>
      <span className="dim">→</span>
      {matches.map((m) => (
        <span key={m} className="badge accent">
          {m}
        </span>
      ))}
      {num(t.total_deferred_tools) !== undefined && (
        <span className="dim">of {num(t.total_deferred_tools)} deferred tools</span>
      )}
    </div>
  );
}
