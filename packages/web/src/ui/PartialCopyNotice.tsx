import type { IssueDto, SessionDetail } from '../data/types';
import { FileIssueLines } from './file-issues';

/**
 * Says so when a file of the session lost records on disk (cut short, replaced, no longer parsing): the timeline
 * shows its last complete version, and a newer partial copy is kept in the archive (issue 36). Names the file and
 * why, and offers that copy as a self-contained page (`GET /api/sessions/:id/versions/partial?format=html`) or JSON.
 */
export function PartialCopyNotice({ detail, issues }: { detail: SessionDetail; issues: readonly IssueDto[] }) {
  const files = issues.filter((i) => i.code === 'version_kept');
  const id = detail.session.id;
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
      <FileIssueLines files={files} />
    </div>
  );
}
