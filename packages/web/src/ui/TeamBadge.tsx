import type { SessionRow } from '../data/types';

const TIER_TITLE: Readonly<Record<string, string>> = {
  summary: 'Shared at the summary tier: numbers only (no title, project, commands or transcript)',
  metadata: 'Shared at the metadata tier: titles, projects and one-line call summaries (no transcript)',
  full: 'Shared at the full tier: the transcript too (secrets redacted)',
};

/** On a team server: who pushed the session, from which device, and at which tier (what the team holds of it). */
export function TeamBadge({ row }: { readonly row: SessionRow }) {
  const { person, device, tier } = row;
  if (person === undefined) return null;
  return (
    <>
      <span className="badge neutral" data-testid="person-badge" title={device ? `pushed from ${device}` : undefined}>
        {person}
        {device ? ` · ${device}` : ''}
      </span>
      {tier && (
        <span className="badge neutral" data-testid="tier-badge" title={TIER_TITLE[tier]}>
          {tier}
        </span>
      )}
    </>
  );
}
