import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { IssueDto, SessionDetail } from '../data/types';

/**
 * The session's issues, asked once per session and only when it has some (`detail.issues`); none until they come, and
 * none when they cannot be had (the notices they feed then stay away). The session page asks, its notices filter.
 */
export function useSessionIssues(detail: SessionDetail | undefined): readonly IssueDto[] {
  const [issues, setIssues] = useState<readonly IssueDto[]>([]);
  const id = detail?.session.id;
  const asked = (detail?.issues ?? 0) > 0;
  useEffect(() => {
    setIssues([]);
    if (id === undefined || !asked) return;
    let live = true;
    api
      .issues(id)
      .then((r) => live && setIssues(r.issues))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [id, asked]);
  return issues;
}

/** Each file and what its issue says, the first 20. */
export function FileIssueLines({ files }: { files: readonly IssueDto[] }) {
  return files.slice(0, 20).map((f) => (
    <div key={f.file} className="mono dim">
      {f.file} — {f.message}
    </div>
  ));
}
