import type { IssueDto } from '../../data/types';

/** The issues a session's header counts, as the API lists them; or why they could not be listed (never "No issues."). */
export type IssuesShown = readonly IssueDto[] | { readonly error: string };

/**
 * The list under the header's issues button (the first 200). `counted`: the header's count; a list without them (a
 * team server keeps a pushed session's count only) says where they are instead of "No issues."
 */
export function IssuesList({ issues, counted = 0 }: { issues: IssuesShown; counted?: number }) {
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
      {issues.length === 0 && counted === 0 && <div className="dim">No issues.</div>}
      {issues.length === 0 && counted > 0 && (
        <div className="dim">
          {counted === 1 ? 'This issue was' : `These ${counted} issues were`} counted where the session was read; the
          files and lines stayed there (a team server keeps the count only: <code>agentdash show</code> on the laptop
          lists them).
        </div>
      )}
      {issues.slice(0, 200).map((i, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: issues keep their order; two may share a line and code
        <div key={n} className="issue">
          <span className="pill">{i.code}</span>
          <span className="mono dim">line {i.line}</span>
          <span>{i.message}</span>
        </div>
      ))}
    </div>
  );
}
