import { useServerFacts } from '../data/server-facts';
import type { SessionTelemetryDto, TelemetryStepDto } from '../data/types';
import { fmtCost, fmtDuration, fmtNumber, knownTimeIso } from '../ui/format';
import { listHref, shortRef } from '../ui/router';
import { SourceBadge } from './SourceBadge';
import { TelemetryFigures } from './TelemetryFigures';
import { TelemetrySummaryLine } from './TelemetryOnlyList';
import { useTelemetrySteps } from './use-telemetry';

const KIND_LABEL = { prompt: 'prompt', request: 'API call', error: 'API error', tool: 'tool' } as const;

/** The step's clock time; "—" when its record carried none. */
function clock(ms: number): string {
  const iso = knownTimeIso(ms);
  return iso === undefined ? '—' : new Date(iso).toLocaleTimeString(undefined, { hour12: false });
}

function StepRow({ step }: { step: TelemetryStepDto }) {
  const failed = step.kind === 'error' || step.success === false;
  return (
    <tr data-testid="telemetry-step" data-kind={step.kind} data-call={step.id}>
      <td className="num dim" data-testid="telemetry-step-time">
        {clock(step.timeMs)}
      </td>
      <td>{KIND_LABEL[step.kind]}</td>
      <td>
        <b>{step.name}</b>
        {step.kind === 'tool' && (
          <span className={`badge ${failed ? 'error' : step.success === null ? 'neutral' : 'ok'}`}>
            {failed ? 'failed' : step.success === null ? '?' : 'ok'}
          </span>
        )}
        {step.detail && <div className="detail">{step.detail}</div>}
      </td>
      <td className="num">
        {step.durationMs !== null && (
          <span data-testid="step-duration">
            {fmtDuration(step.durationMs)} <SourceBadge source="measured" compact />
          </span>
        )}
        {step.ttftMs !== null && <div className="dim">first token {fmtDuration(step.ttftMs)}</div>}
      </td>
      <td className="num dim">
        {step.inputTokens !== null && `${fmtNumber(step.inputTokens)} in · ${fmtNumber(step.outputTokens ?? 0)} out`}
        {step.costUsd !== null && <div>{fmtCost(step.costUsd)}</div>}
      </td>
    </tr>
  );
}

/**
 * A session known only from telemetry (no transcript on this machine): its figures and its calls as the client
 * reported them, filling in live. When its transcript is indexed the session page shows it whole instead.
 */
export function TelemetrySessionView({ id, telemetry }: { id: string; telemetry: SessionTelemetryDto }) {
  const steps = useTelemetrySteps(id);
  const team = useServerFacts()?.mode === 'team';
  const client = telemetry.telemetry.client;
  return (
    <div className="page" data-testid="telemetry-session">
      <div className="crumbs">
        <a href={listHref()}>Sessions</a>
        <span>/</span>
        <span className="mono">{id}</span>
        <span className="badge accent">telemetry only</span>
      </div>
      <h1 className="page-title">Session {shortRef(id)}</h1>
      <p className="dim" data-testid="telemetry-only-note">
        {team
          ? `No transcript of this session was pushed to the team server (yet): these are the calls ${client}'s own telemetry reported. Once a push sends the session, this page shows it as its tier allows, with these measured times joined.`
          : `No transcript of this session is on this machine (yet): these are the calls ${client}'s own telemetry reported. Once its transcript is indexed, this page shows it whole, with these measured times joined.`}
      </p>
      <div className="tel-figures">
        <TelemetrySummaryLine s={telemetry.telemetry} times={false} />
      </div>
      <TelemetryFigures telemetry={telemetry} />
      <table className="tel-steps" data-testid="telemetry-steps">
        <thead>
          <tr>
            <th className="num">time</th>
            <th>what</th>
            <th>name</th>
            <th className="num">duration</th>
            <th className="num">tokens · cost</th>
          </tr>
        </thead>
        <tbody>
          {steps?.steps.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps come in a fixed time order; prompts share ids
            <StepRow key={`${s.kind}:${s.id}:${i}`} step={s} />
          ))}
        </tbody>
      </table>
      {steps?.truncated && <div className="dim">Only the first steps are shown.</div>}
    </div>
  );
}
