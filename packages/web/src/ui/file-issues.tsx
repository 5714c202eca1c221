import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { IssueDto, SessionDetail } from '../data/types';

/**
 * The session's issues of `code` (one a file: `unreadable_file`, `version_kept`), asked only when the session has
 * issues at all; none until they come, and none when they cannot be had (the notice they feed then stays away).
 */
export function useFileIssues(detail: SessionDetail, code: IssueDto['code']): readonly IssueDto[] {
  const [files, setFiles] = useState<readonly IssueDto[]>([]);
  const id = detail.session.id;
  const asked = detail.issues > 0;
  useEffect(() => {
    setFiles([]);
    if (!asked) return;
    let live = true;
    api
      .issues(id)
      .then((r) => live && setFiles(r.issues.filter((i) => i.code === code)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, asked, code]);
  return files;
}

/** Each file and what its issue says, the first 20. */
export function FileIssueLines({ files }: { files: readonly IssueDto[] }) {
  return files.slice(0, 20).map((f) => (
    <div key={f.file} className="mono dim">
      {f.file} — {f.message}
    </div>
  ));
}
