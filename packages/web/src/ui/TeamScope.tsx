import { useEffect, useState } from 'react';
import { api } from '../data/client';
import { useServerFacts } from '../data/server-facts';
import { type TeamScope as Scope, setTeamScope, subscribeTeamScope, teamScope } from '../data/team-scope';
import type { TeamPeopleResponse } from '../data/types';

/**
 * A team server's person and device filter, in the top bar of every page; nothing on a local server. Choosing one
 * filters every page (the choice rides on every API request; the app shows the page again on a change, made here or
 * by a person's link on the Usage page).
 */
export function TeamScope() {
  const facts = useServerFacts();
  const team = facts?.mode === 'team';
  const tiers = facts?.tiers ?? [];
  const [people, setPeople] = useState<TeamPeopleResponse['people'] | undefined>(undefined);
  const [scope, setScope] = useState<Scope>(teamScope());
  useEffect(() => subscribeTeamScope(setScope), []);
  useEffect(() => {
    if (!team) return;
    const ctl = new AbortController();
    api
      .team(ctl.signal)
      .then((r) => setPeople(r.people))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [team]);
  if (people === undefined) return null;
  const choose = (next: Scope) => setTeamScope(next);
  const held = tiers.length > 0 ? ` · holds ${tiers.join(', ')}` : '';
  const devices = people.find((p) => p.name === scope.person)?.devices ?? [];
  return (
    <span className="team-scope" data-testid="team-scope">
      <span
        className="badge neutral"
        data-testid="server-mode"
        title={`Sessions pushed by every person's machines (agentdash push), each at the tier its person chose${held}`}
      >
        team server
        {/* a narrow top bar leaves the tiers to the title */}
        {held && <span className="team-tiers">{held}</span>}
      </span>
      <select
        className="select"
        aria-label="Person"
        data-testid="filter-person"
        value={scope.person ?? ''}
        onChange={(e) => choose({ person: e.target.value })}
      >
        <option value="">Everyone</option>
        {people.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name} ({p.sessions})
          </option>
        ))}
      </select>
      {scope.person && devices.length > 1 && (
        <select
          className="select"
          aria-label="Device"
          data-testid="filter-device"
          value={scope.device ?? ''}
          onChange={(e) => choose({ ...scope, device: e.target.value })}
        >
          <option value="">All devices</option>
          {devices.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      )}
    </span>
  );
}
