import { baseName, fileChanged as changed, FILE_SOURCES_NOTE, plural, relativePath } from '@agentdash/core/present';
import { Fragment, useState } from 'react';
import { api, staticSource } from '../data/client';
import { useServerFacts } from '../data/server-facts';
import type { FileActivity } from '../data/types';
import { useSessionAnswer } from '../data/use-session-answer';
import { fmtNumber, fmtTime } from '../ui/format';
import { sessionHref, waterfallHref } from '../ui/router';
import { SessionCrumbs } from '../ui/SessionCrumbs';
import { touchedFileHref } from './sessions/list-url';
import './files.css';

/**
 * Where a file moved, as its badge says it: renamed in its folder (its new name), else moved (its new path); a long
 * one cut at its start, where the name is (the whole path in the badge's title).
 */
function moveOf(from: string, to: string, projectPath: string | undefined) {
  const renamed = folderOf(from) === folderOf(to);
  return (
    <>
      {renamed ? 'renamed to' : 'moved to'}{' '}
      <span className="one-line path-tail">
        <bdi>{renamed ? baseName(to) : relativePath(to, projectPath)}</bdi>
      </span>
    </>
  );
}
const folderOf = (path: string) => path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

/** What became of the file: created, deleted, moved (each a badge), and its lines added and removed. */
function Outcome({ file, projectPath }: { readonly file: FileActivity; readonly projectPath: string | undefined }) {
  return (
    <>
      {file.created && <span className="badge ok">created</span>}
      {file.deleted && <span className="badge error">deleted</span>}
      {file.movedTo !== null && (
        <span className="badge neutral files-moved" title={file.movedTo}>
          {moveOf(file.path, file.movedTo, projectPath)}
        </span>
      )}
      {file.linesAdded + file.linesRemoved > 0 && (
        <span className="mono" data-testid="file-lines">
          <span className="diff-add">+{fmtNumber(file.linesAdded)}</span>{' '}
          <span className="diff-del">−{fmtNumber(file.linesRemoved)}</span>
        </span>
      )}
    </>
  );
}

/**
 * What a file's call links leave out (the answer links its first calls only): how many more, and a link that finds
 * them in the timeline by the file's path as the project names it (a call may have written it relative, as Codex's
 * patches do, or absolute: both contain that; a file outside the project by its whole path).
 */
export function MoreCalls(props: {
  readonly id: string;
  readonly file: FileActivity;
  readonly projectPath: string | undefined;
}) {
  const { id, file } = props;
  const more = file.calls - file.callIds.length;
  if (more <= 0) return null;
  const find = relativePath(file.path, props.projectPath);
  return (
    <span className="dim" data-testid="file-more-calls">
      {' '}
      and {plural(more, 'more call')}: <a href={sessionHref(id, undefined, find)}>find them in the timeline</a>
    </span>
  );
}

/** One group of files (changed, or not: only read, or every change failed), each with its calls behind a toggle. */
/** A file's reads, edits, writes and last call in words ("2 reads · 1 edit · last 20:23:11"), for a phone's table
 * (which leaves out these columns and the Sessions one, linked after them). */
export function countsLine(file: FileActivity, changes: boolean): string {
  const counts: [number, string][] = [
    [file.reads, 'read'],
    ...(changes
      ? ([
          [file.edits, 'edit'],
          [file.writes, 'write'],
        ] as [number, string][])
      : []),
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, noun]) => plural(n, noun));
  if (file.lastAt !== null) parts.push(`last ${fmtTime(file.lastAt)}`);
  return parts.join(' · ');
}

function FileTable(props: {
  readonly id: string;
  readonly title: string;
  readonly files: readonly FileActivity[];
  readonly projectPath: string | undefined;
  readonly testId: string;
  /** Files not changed: no outcome, edits nor writes to show. */
  readonly onlyRead?: boolean;
  /** Each file links to the sessions that touched it (a local server's list; not a team's, not an export). */
  readonly touchedLinks: boolean;
}) {
  const { id, files, projectPath, touchedLinks } = props;
  const changes = props.onlyRead !== true;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (path: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  if (files.length === 0) return null;
  return (
    <section className="files-group" data-testid={props.testId}>
      <h2>
        {props.title} <span className="chart-hint">{plural(files.length, 'file')}</span>
      </h2>
      <div className="table-wrap">
        <table className="table compact">
          <thead>
            <tr>
              <th>File</th>
              {changes && <th>Outcome</th>}
              <th className="num files-count">Reads</th>
              {changes && <th className="num files-count">Edits</th>}
              {changes && <th className="num files-count">Writes</th>}
              <th className="num">Failed</th>
              <th className="num">Calls</th>
              <th className="files-count">Last</th>
              {touchedLinks && <th className="files-count">Sessions</th>}
            </tr>
          </thead>
          <tbody>
            {files.map((f) => {
              const shown = open.has(f.path);
              return (
                <Fragment key={f.path}>
                  <tr data-testid="file-row" data-path={f.path}>
                    {/* takes the width the other columns leave, and cuts the path there (the whole one in its title);
                        on a phone the counts and time columns give way (said under the calls), and the table scrolls
                        rather than cut the path to nothing */}
                    <td className="files-path">
                      <a className="one-line path-tail mono" href={sessionHref(id, f.callIds[0])} title={f.path}>
                        <bdi>{relativePath(f.path, projectPath)}</bdi>
                      </a>
                    </td>
                    {changes && (
                      <td className="files-outcome">
                        <Outcome file={f} projectPath={projectPath} />
                      </td>
                    )}
                    <td className="num files-count">{f.reads > 0 ? fmtNumber(f.reads) : ''}</td>
                    {changes && <td className="num files-count">{f.edits > 0 ? fmtNumber(f.edits) : ''}</td>}
                    {changes && <td className="num files-count">{f.writes > 0 ? fmtNumber(f.writes) : ''}</td>}
                    <td className="num">
                      {f.failed > 0 ? <span className="err-text">{fmtNumber(f.failed)}</span> : ''}
                    </td>
                    <td className="num">
                      <button
                        type="button"
                        className="btn small"
                        aria-expanded={shown}
                        aria-label={`${shown ? 'Hide' : 'Show'} the ${plural(f.calls, 'call')} on ${f.path}`}
                        onClick={() => toggle(f.path)}
                        data-testid="file-calls-toggle"
                      >
                        {fmtNumber(f.calls)} {shown ? '▾' : '▸'}
                      </button>
                    </td>
                    <td className="mono dim files-count">{fmtTime(f.lastAt)}</td>
                    {touchedLinks && (
                      <td className="files-count">
                        <a
                          className="btn small"
                          href={touchedFileHref(f.path)}
                          title={`The sessions whose file tools read or changed ${f.path}`}
                          aria-label={`Sessions that touched ${f.path}`}
                          data-testid="file-sessions"
                        >
                          all
                        </a>
                      </td>
                    )}
                  </tr>
                  {shown && (
                    <tr className="files-calls">
                      <td colSpan={(changes ? 8 : 5) + (touchedLinks ? 1 : 0)}>
                        {f.callIds.map((callId, i) => (
                          <a key={callId} className="btn small" href={sessionHref(id, callId)} data-testid="file-call">
                            call {i + 1}
                          </a>
                        ))}
                        <MoreCalls id={id} file={f} projectPath={projectPath} />
                        {/* the counts and time a phone's table leaves out, said here */}
                        <span className="dim files-counts-line" data-testid="file-counts">
                          {countsLine(f, changes)}
                          {touchedLinks && (
                            <>
                              {' · '}
                              <a href={touchedFileHref(f.path)} data-testid="file-sessions-line">
                                its sessions
                              </a>
                            </>
                          )}
                        </span>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The files a session's file tools read, wrote, edited, created, deleted or moved: those it changed, then those it
 * did not change (read, or tried to change and failed), each with its lines added and removed, its failed calls, and
 * links to its calls in the timeline.
 */
export function FilesPage({ id }: { id: string }) {
  const { data, error } = useSessionAnswer(id, api.files);
  const exported = staticSource() !== undefined;
  // A team server keeps no tool inputs: it cannot tell which sessions touched a file (its list refuses `file`).
  const facts = useServerFacts();
  const touchedLinks = !exported && facts !== undefined && facts.mode !== 'team';
  if (error) {
    return (
      <div className="page">
        <SessionCrumbs id={id} page="Files" />
        <div className="err-msg">Could not load the session's files: {error}</div>
      </div>
    );
  }
  const files = data?.files ?? [];
  const edited = files.filter(changed);
  const read = files.filter((f) => !changed(f));
  const added = edited.reduce((sum, f) => sum + f.linesAdded, 0);
  const removed = edited.reduce((sum, f) => sum + f.linesRemoved, 0);
  const projectPath = data?.projectPath ?? undefined;
  return (
    <div className="page" data-testid="files-page">
      <div className="page-head">
        <div>
          <SessionCrumbs id={id} page="Files" />
          <h1 className="page-title">Files</h1>
          <div className="page-sub" data-testid="files-summary">
            {data === undefined
              ? 'Loading… · '
              : files.length > 0 &&
                `${plural(edited.length, 'file')} changed (+${fmtNumber(added)} −${fmtNumber(removed)} lines) · ${plural(read.length, 'file')} not changed · `}
            {FILE_SOURCES_NOTE}
          </div>
        </div>
        <div className="row page-actions">
          <a className="btn small" href={sessionHref(id)}>
            Timeline
          </a>
          {!exported && (
            <a className="btn small" href={waterfallHref(id)}>
              Waterfall
            </a>
          )}
        </div>
      </div>
      {data && files.length === 0 && (
        <div className="empty">No file was read or changed in this session, as far as its calls tell.</div>
      )}
      <FileTable
        id={id}
        title="Changed"
        files={edited}
        projectPath={projectPath}
        testId="files-changed"
        touchedLinks={touchedLinks}
      />
      <FileTable
        id={id}
        title="Not changed"
        files={read}
        projectPath={projectPath}
        testId="files-read"
        onlyRead
        touchedLinks={touchedLinks}
      />
    </div>
  );
}
