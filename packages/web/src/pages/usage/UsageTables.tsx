import { modelLabel, shortRefs } from '@agentdash/core/present';
import { setTeamScope } from '../../data/team-scope';
import type { UsageResponse } from '../../data/types';
import { AgentBadge } from '../../ui/AgentBadge';
import { type fmtCost, fmtCostCell, fmtDate, fmtDuration, fmtNumber, rangeParts, shortPath } from '../../ui/format';
import { sessionHref } from '../../ui/router';
import { type Metric, tokensOf } from './use-usage';

type U = { usage: UsageResponse | undefined };

/**
 * The models, costliest first (most tokens first when the page shows tokens), each with the colour the chart gives
 * it (`colorOf`).
 */
export function ModelsTable({
  usage,
  colorOf,
  metric = 'cost',
}: U & { colorOf: (model: string) => string; metric?: Metric }) {
  const rows = usage?.models ?? [];
  const ordered = metric === 'tokens' ? [...rows].sort((a, b) => tokensOf(b) - tokensOf(a)) : rows;
  return (
    <div className="card" data-testid="usage-models">
      <h2>By model</h2>
      {/* On a phone its columns fit the card (usage-fit, styles.css); should a model id still be too long, it scrolls. */}
      <FiguresTable
        label="Model"
        rows={ordered}
        empty={usage && 'No usage.'}
        keyOf={(m) => m.model}
        labelOf={(m) => (
          // One line on a desk; on a phone it breaks at its hyphens, so that the figures fit beside it.
          <>
            <i className="swatch" style={{ background: colorOf(m.model) }} />
            {modelLabel(m.model)}
          </>
        )}
      />
    </div>
  );
}

/** Cost, responses and tokens per agent, as the server orders them (shown with two agents or more). */
export function AgentsTable({ usage }: U) {
  const rows = usage?.agents ?? [];
  if (rows.length < 2) return null;
  return (
    <div className="card" data-testid="agent-usage">
      <h2>By agent</h2>
      <FiguresTable label="Agent" rows={rows} keyOf={(a) => a.agent} labelOf={(a) => <AgentBadge agent={a.agent} />} />
    </div>
  );
}

/**
 * Cost, responses and tokens per person, costliest first (a team server's answer has `people`; shown with two people
 * or more): a name chooses that person in the top bar's filter, as choosing them there does (every page then shows
 * their sessions only).
 */
export function PeopleTable({ usage }: U) {
  const rows = usage?.people ?? [];
  if (rows.length < 2) return null;
  return (
    <div className="card" data-testid="usage-people">
      <h2>By person</h2>
      <FiguresTable
        label="Person"
        rows={rows}
        keyOf={(p) => p.person}
        labelOf={(p) => (
          <button
            type="button"
            className="link-btn"
            title={`Show ${p.person}'s sessions only`}
            onClick={() => setTeamScope({ person: p.person })}
          >
            {p.person}
          </button>
        )}
      />
    </div>
  );
}

export function TopSessions({ usage, metric = 'cost' }: U & { metric?: Metric }) {
  const top = (usage?.topSessions ?? []).slice(0, 10);
  const short = shortRefs(top.map((s) => s.id));
  return (
    <div className="card" data-testid="usage-top-sessions">
      <h2>
        Top sessions by cost
        {/* The answer holds the costliest sessions only: their tokens are not the most tokens of any session. */}
        {metric === 'tokens' && <span className="chart-hint">the costliest, in both views</span>}
      </h2>
      {/* On a phone the table may be wider than its card: it scrolls there (the cost stays reachable). */}
      {usage !== undefined && top.length === 0 ? (
        <div className="empty" data-testid="usage-empty">
          No sessions.
        </div>
      ) : (
        <div className="card-scroll">
          <table className="table compact">
            <thead>
              <tr>
                <th>Session</th>
                <th>Started</th>
                <th className="num">Tokens</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {top.map((s) => (
                <tr key={s.id}>
                  {/* Takes the width the other columns leave, and cuts its lines there (a long title or path). */}
                  <td style={{ width: '100%', maxWidth: 0 }}>
                    <a className="one-line" href={sessionHref(s.id)} title={s.title ?? s.id}>
                      {s.title || short.get(s.id)}
                    </a>
                    {/* its short id too: sessions of one title and project (a scenario run by three clients) */}
                    <div className="dim mono one-line" style={{ fontSize: 11.5 }} data-testid="top-session-where">
                      {s.title ? `${short.get(s.id)} · ` : ''}
                      {shortPath(s.project)}
                    </div>
                  </td>
                  <td className="usage-started">{fmtDate(s.startedAt)}</td>
                  <td className="num">{fmtNumber(tokensOf(s))}</td>
                  <td className={`num cost wraps ${s.costUsd === null ? 'unknown' : ''}`}>
                    {fmtCostCell(s.costUsd, s)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * The 5-hour blocks, most recent first. `team`: on a team server, whose blocks are one person's (none while several
 * are in scope: `blocksByPerson`), no laptop command lists the rest (`agentdash usage blocks` lists one laptop's own).
 * `blocksOnly`: whose usage limits they are, when the agent chosen has none (`blocksOnlyOf`).
 */
export function UsageBlocks({
  usage,
  team = false,
  blocksOnly,
}: U & { team?: boolean; blocksOnly?: string | undefined }) {
  if (blocksOnly !== undefined)
    return (
      <div className="card" data-testid="usage-blocks">
        <h2>5-hour blocks</h2>
        <p className="dim" data-testid="usage-blocks-none">
          Usage limits in 5-hour blocks are {blocksOnly}'s: this agent's responses make none.
        </p>
      </div>
    );
  return (
    <div className="card" data-testid="usage-blocks">
      <h2>
        5-hour blocks<span className="chart-hint">usage limits reset 5 h after a block's first request</span>
      </h2>
      {usage !== undefined && usage.blocksTotal > usage.blocks.length && (
        <p className="dim" data-testid="usage-blocks-shown">
          The {fmtNumber(usage.blocks.length)} most recent of {fmtNumber(usage.blocksTotal)} blocks
          {team ? (
            '.'
          ) : (
            <>
              {' '}
              (<code>agentdash usage blocks</code> lists them all).
            </>
          )}
        </p>
      )}
      {usage?.blocksByPerson === true ? (
        <p className="dim" data-testid="usage-blocks-by-person">
          Usage limits are each person's own: choose a person to list their blocks.
        </p>
      ) : (
        <BlocksTable usage={usage} />
      )}
    </div>
  );
}

function BlocksTable({ usage }: U) {
  return (
    <FiguresTable
      label="Block"
      rows={[...(usage?.blocks ?? [])].reverse()}
      empty={usage && 'No blocks.'}
      keyOf={(b) => b.start}
      labelOf={(b) => (
        // on a phone its start and end on lines of their own
        <>
          <span className="usage-piece">{rangeParts(b.start, b.end)[0]} –</span>{' '}
          <span className="usage-piece">{rangeParts(b.start, b.end)[1]}</span>
          {b.isActive && <span className="badge live"> {fmtDuration(b.remainingMs)} left</span>}
        </>
      )}
    />
  );
}

/** What a row of `FiguresTable` shows: responses, tokens and a cost (a lower bound where its gaps say so). */
type Figures = Parameters<typeof tokensOf>[0] & {
  readonly responses: number;
  readonly costUsd: number | null;
} & Parameters<typeof fmtCost>[1];

/** The usage tables' one shape: a label, then responses, tokens and cost; it scrolls on a phone when too wide. */
function FiguresTable<T extends Figures>({
  label,
  rows,
  keyOf,
  labelOf,
  empty,
}: {
  readonly label: string;
  readonly rows: readonly T[];
  readonly keyOf: (row: T) => string;
  readonly labelOf: (row: T) => React.ReactNode;
  /** Said instead of a table of no rows (once the answer is in: while it loads, the table's head holds its place). */
  readonly empty?: string | undefined;
}) {
  if (empty !== undefined && rows.length === 0) {
    return (
      <div className="empty" data-testid="usage-empty">
        {empty}
      </div>
    );
  }
  return (
    <div className="card-scroll">
      <table className="table compact">
        <thead>
          <tr>
            <th>{label}</th>
            <th className="num">Responses</th>
            <th className="num">Tokens</th>
            <th className="num">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={keyOf(r)}>
              <td className="usage-label">{labelOf(r)}</td>
              <td className="num">{fmtNumber(r.responses)}</td>
              <td className="num">{fmtNumber(tokensOf(r))}</td>
              <td className={`num cost wraps ${r.costUsd === null ? 'unknown' : ''}`}>{fmtCostCell(r.costUsd, r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
