import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { IssueDto, SessionDetail } from '../data/types';

/**
 * Says so when a file of the session lost records on disk (cut short, replaced, no longer parsing): the timeline
 * shows its last complete version, and a newer partial copy is kept in the archive (issue 36). Names the file and
 * why, and offers that copy as a self-contained page (`GET /api/sessions/:id/versions/partial?format=html`) or JSON.
 */
export function PartialCopyNotice({ detail }: { detail: SessionDetail }) {
  const [files, setFiles] = useState<readonly IssueDto[]>([]);
  const id = detail.session.id;
  const asked = detail.issues > 0;
  useEffect(() => {
    setFiles([]);
    if (!asked) return;
    let live = true;
    api
      .issues(id)
      .then((r) => live && setFiles(r.issues.filter((i) => i.code === 'version_kept')))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, asked]);
  if (files.length === 0) return null;
  const base = `api/sessions/${encodeURIComponent(id)}/versions/partial`;
  return (
    <div className="notice warn" role="status" data-testid="partial-copy-notice">
      <b>
        {files.length === 1
          ? 'A newer partial copy of this session’s file exists'
          : `Newer partial copies of ${files.length} of this session’s files exist`}
      </b>
      : below is the last complete version.{' '}
      <a href={`${base}?format=html`} download data-testid="partial-copy-html">
        Download the partial copy (HTML)
      </a>
      {' · '}
      <a href={`${base}?format=json`} download data-testid="partial-copy-json">
        JSON
      </a>
      {files.slice(0, 20).map((f) => (
        <div key={f.file} className="mono dim">
          {f.file} — {f.message}
        </div>
      ))}
    </div>
  );
}
