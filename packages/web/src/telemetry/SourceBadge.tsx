import './telemetry.css';

const TITLES = {
  measured: "Measured by the agent's own telemetry (OpenTelemetry): the client's clock",
  inferred: "Inferred by AgentDash from the transcript's record timestamps (no telemetry for it)",
} as const;

/** Says where a figure comes from: the client's own measurement, or AgentDash's inference from timestamps. */
export function SourceBadge({ source, compact = false }: { source: 'measured' | 'inferred'; compact?: boolean }) {
  return (
    <span className={`src-badge ${source}`} title={TITLES[source]} data-testid="source-badge" data-source={source}>
      {compact ? (source === 'measured' ? 'm' : '~') : source}
    </span>
  );
}

/** Which figures are measured and which inferred: the legend for the compact badges of the timeline. */
export function SourceLegend() {
  return (
    <span className="src-legend" data-testid="source-legend">
      <SourceBadge source="measured" compact /> measured by the client · <SourceBadge source="inferred" compact />{' '}
      inferred from timestamps
    </span>
  );
}
