import type { SessionRow } from '../data/types';

export const TIER_TITLE: Readonly<Record<string, string>> = {
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

/** Whether the server holds the session's transcript: always on a local server; at the full tier on a team server. */
export function holdsTranscript(row: SessionRow | undefined): boolean {
  return row?.tier === undefined || row.tier === 'full';
}

/**
 * A team session shared below the full tier: its timeline is not on the team server, and the page says so (and what
 * the tier holds) instead of an empty or made-up timeline.
 */
export function TierNotice({ row }: { readonly row: SessionRow }) {
  if (holdsTranscript(row)) return null;
  const who = row.person ? `${row.person}'s ${row.device ?? 'machine'}` : 'the machine it ran on';
  // one thing kept back (its transcript) or several (with its title and project): the verb and pronoun agree
  const kept = row.tier === 'summary' ? 'transcript, title and project stay' : 'transcript stays';
  const them = row.tier === 'summary' ? 'them' : 'it';
  return (
    <div className="notice reading" role="status" data-testid="tier-notice">
      <b>{TIER_TITLE[row.tier ?? '']}.</b> Its {kept} on {who}: the team server never received {them}, so there is no
      timeline to show here, only its calls as the tier holds them.
    </div>
  );
}
