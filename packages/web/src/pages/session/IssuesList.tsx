import type { IssueDto } from '../../data/types';

/** The issues a session's header counts, as the API lists them; or why they could not be listed (never "No issues."). */
export type IssuesShown = readonly IssueDto[] | { readonly error: string };

/** The list under the header's issues button (the first 200). */
export function IssuesList({ issues }: { issues: IssuesShown }) {
  if ('error' in issues) {
    return (
      <div className="issues" data-testid="issues">
        <div className="notice warn" role="alert">
          The issues could not be listed: {issues.error}
        </div>
      </div>
    );
  }
  return (
    <div className="issues" data-testid="issues">
      {issues.length === 0 && <div className="dim">No issues.</div>}
      {issues.slice(0, 200).map((i) => (
        <div key={`${i.file}:${i.line}:${i.code}`} className="issue">
          <span className="pill">{i.code}</span>
          <span className="mono dim">line {i.line}</span>
          <span>{i.message}</span>
        </div>
      ))}
    </div>
  );
}
