import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { IssueDto, SessionDetail } from '../data/types';

/**
 * Says so when a file of the session cannot be read now (permissions changed, replaced by a folder, removed): the
 * timeline then shows only what could be read (nothing, for the main file), and this names the file and the reason.
 */
export function UnreadableNotice({ detail }: { detail: SessionDetail }) {
  const [files, setFiles] = useState<readonly IssueDto[]>([]);
  const id = detail.session.id;
  const asked = detail.issues > 0;
  useEffect(() => {
    setFiles([]);
    if (!asked) return;
    let live = true;
    api
      .issues(id)
      .then((r) => live && setFiles(r.issues.filter((i) => i.code === 'unreadable_file')))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, asked]);
  if (files.length === 0) return null;
  return (
    <div className="notice warn" role="alert" data-testid="unreadable-notice">
      <b>
        {files.length === 1
          ? 'A file of this session cannot be read now'
          : `${files.length} files of this session cannot be read now`}
      </b>
      {detail.totalEvents === 0 ? ': the timeline is empty for that reason.' : ': what they held is missing below.'}
      {files.slice(0, 20).map((f) => (
        <div key={f.file} className="mono dim">
          {f.file} — {f.message}
        </div>
      ))}
    </div>
  );
}
