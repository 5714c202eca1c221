import type { IssueDto, SessionDetail } from '../data/types';
import { FileIssueLines } from './file-issues';

/**
 * Says so when a file of the session cannot be read now (permissions changed, replaced by a folder, removed): the
 * timeline then shows only what could be read (nothing, for the main file), and this names the file and the reason.
 */
export function UnreadableNotice({ detail, issues }: { detail: SessionDetail; issues: readonly IssueDto[] }) {
  const files = issues.filter((i) => i.code === 'unreadable_file');
  if (files.length === 0) return null;
  return (
    <div className="notice warn" role="alert" data-testid="unreadable-notice">
      <b>
        {files.length === 1
          ? 'A file of this session cannot be read now'
          : `${files.length} files of this session cannot be read now`}
      </b>
      {detail.totalEvents === 0 ? ': the timeline is empty for that reason.' : ': what they held is missing below.'}
      <FileIssueLines files={files} />
    </div>
  );
}
