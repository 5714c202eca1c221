import { fmtBytes, fmtDuration } from '../ui/format';
import { Markdown } from '../ui/Markdown';
import { inputOf, KV, ok, Plain, type RendererProps, resultText, Section, typedOf } from './common';

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
  const i = inputOf(call);
  const t = typedOf(call, 'grep');
  const mode = t?.mode ?? i.outputMode ?? 'files_with_matches';
  const files = t?.filenames ?? [];
  const content = t?.content;
  // Claude Code counts no files in content mode (numFiles 0 over lines of three files): no count, not "0 files"
  const numFiles = mode === 'content' && t?.numFiles === 0 && (content ?? '') !== '' ? undefined : t?.numFiles;
  const flags = i.flags ?? [];
  const limit = t?.appliedLimit;
  return (
    <div data-testid="renderer-Grep" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="mono" style={{ color: 'var(--warn)' }}>
          /{i.pattern}/
        </span>
        {i.path && <span className="path dim">in {i.path}</span>}
        {i.glob && <span className="pill">glob {i.glob}</span>}
        {i.fileType && <span className="pill">type {i.fileType}</span>}
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
            {t?.numLines !== undefined && (
              <span>
                {numFiles !== undefined ? '· ' : ''}
                {plural(t.numLines, 'line')}
              </span>
            )}
            {t?.numMatches !== undefined && <span>· {plural(t.numMatches, 'match', 'matches')}</span>}
            {t?.totalFiles !== undefined && <span>· {t.totalFiles} total</span>}
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
  const i = inputOf(call);
  const t = typedOf(call, 'glob');
  const files = t?.filenames ?? [];
  const numFiles = t?.numFiles ?? files.length;
  const total = t?.totalMatches;
  return (
    <div data-testid="renderer-Glob" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="mono" style={{ color: 'var(--warn)' }}>
          {i.pattern}
        </span>
        {i.path && <span className="path dim">in {i.path}</span>}
      </div>
      {ok(call) && (
        <>
          <div className="row dim" style={{ fontSize: 12.5 }}>
            <span data-testid="match-count">{plural(numFiles, 'file')}</span>
            {total !== undefined && total !== numFiles && <span>· {total} matched</span>}
            {t?.durationMs !== undefined && <span>· {fmtDuration(t.durationMs)}</span>}
            {t?.truncated === true && <span className="badge unanswered">truncated</span>}
          </div>
          {files.length > 0 ? <FileList files={files} /> : <span className="dim">No files.</span>}
        </>
      )}
    </div>
  );
}

export function WebSearchRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'web-search');
  const links = (t?.links ?? []).map((l) => ({ title: l.title || l.url, url: l.url }));
  const notes = t?.texts ?? [];
  const query = i.query ?? t?.query;
  const safe = (url: string) => /^https?:\/\//i.test(url);
  return (
    <div data-testid="renderer-WebSearch" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span style={{ fontWeight: 600 }}>“{query}”</span>
        {t?.durationSeconds !== undefined && <span className="dim">{fmtDuration(t.durationSeconds * 1000)}</span>}
        {(i.allowedDomains ?? []).length > 0 && <span className="pill">only {i.allowedDomains?.join(', ')}</span>}
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
      {ok(call) && links.length === 0 && notes.length === 0 && <UntypedResults call={call} query={query} />}
    </div>
  );
}

/**
 * A search's result the agent gave no typed form: its text, or, when it is the query again (Codex keeps a search's
 * query, never its results), that the results are not in the transcript (the query stood twice).
 */
function UntypedResults({ call, query }: { call: RendererProps['call']; query: string | undefined }) {
  const text = resultText(call.result?.content);
  if (text.trim() !== '' && text.trim() === query?.trim())
    return (
      <div className="dim" data-testid="search-results-unrecorded">
        The transcript keeps the query only, not the results.
      </div>
    );
  return <Plain text={text} />;
}

export function WebFetchRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'web-fetch');
  const code = t?.code;
  return (
    <div data-testid="renderer-WebFetch" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="path">{t?.url ?? i.url}</span>
        {code !== undefined && (
          <span className={`badge ${code < 400 ? 'ok' : 'error'}`} data-testid="http-status">
            {code} {t?.codeText}
          </span>
        )}
        {t?.bytes !== undefined && <span className="dim">{fmtBytes(t.bytes)}</span>}
      </div>
      {i.prompt && <KV rows={[['prompt', i.prompt]]} />}
      {ok(call) && (
        <Section label="Summary">
          <Markdown text={t?.result ?? resultText(call.result?.content)} />
        </Section>
      )}
    </div>
  );
}

export function ToolSearchRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'tool-search');
  const matches = t?.matches ?? [];
  return (
    <div data-testid="renderer-ToolSearch" className="row">
      <span className="mono">{i.query}</span>
      <span className="dim">→</span>
      {matches.map((m) => (
        <span key={m} className="badge accent">
          {m}
        </span>
      ))}
      {t?.totalDeferredTools !== undefined && <span className="dim">of {t.totalDeferredTools} deferred tools</span>}
    </div>
  );
}
