import { useEffect } from 'react';
import { agentLabels, useAgents } from '../data/agents';
import { api, subscribeConnection } from '../data/client';
import { useServerFacts } from '../data/server-facts';

/**
 * Says that the sessions shown are the sample sessions bundled with AgentDash (no agent home holds a transcript
 * yet), and how to see one's own: a newcomer would take them for their own sessions. In the index progress's box.
 * The agents and their homes come from the registry, so a new agent is named here without a change.
 */
/** A command is never broken inside (`npm start -` / `- PATH` on a phone). */
const NO_BREAK = { whiteSpace: 'nowrap' } as const;

export function SamplesNotice() {
  const samples = useServerFacts()?.samples === true;
  const agents = useAgents() ?? [];
  useEffect(() => (samples ? reloadOnceHomesShow() : undefined), [samples]);
  if (!samples) return null;
  return (
    <div className="index-progress" role="note" data-testid="samples-notice">
      <div className="index-progress-text">
        {/* one run of text: the heading and its sentence wrap as a line does, never the dash alone at a line's start */}
        <span>
          <strong>Sample sessions</strong> — point AgentDash at your own with{' '}
          <code style={NO_BREAK}>npm start -- PATH</code> or <code style={NO_BREAK}>agentdash serve PATH</code>, PATH
          being a {agentLabels(agents)} home or a folder in one.
        </span>
        <details className="samples-homes">
          <summary className="samples-homes-summary">Where each agent keeps its sessions</summary>
          <ul className="samples-homes-list">
            {agents.map((a) => (
              <li key={a.id}>
                {a.label}: {a.homes}
              </li>
            ))}
          </ul>
        </details>
      </div>
    </div>
  );
}

/**
 * `agentdash serve` over the samples starts again over the agents' homes once one holds a transcript (the page's
 * server goes away and comes back on the same address): once reconnected, a server no longer showing the samples
 * reloads the page, which then shows the person's own sessions. Returns the unsubscribe.
 */
function reloadOnceHomesShow(): () => void {
  let lost = false;
  return subscribeConnection((connected) => {
    if (!connected) {
      lost = true;
      return;
    }
    if (!lost) return;
    lost = false;
    void api
      .health()
      .then((health) => {
        if (health.samples !== true) window.location.reload();
      })
      .catch(() => undefined);
  });
}
