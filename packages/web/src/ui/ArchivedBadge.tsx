/**
 * The badge of a session kept only in AgentDash's archive, in the sessions list and the session's header. Any agent's
 * files can go (Claude Code deletes old ones by default; a person may clean up any home): Claude Code is an example.
 */
const TITLE =
  'Its transcript files are gone from disk (Claude Code, for one, deletes old ones); AgentDash keeps it in its archive';

export function ArchivedBadge() {
  return (
    <span className="badge neutral" data-testid="archived-badge" title={TITLE}>
      archived
    </span>
  );
}
