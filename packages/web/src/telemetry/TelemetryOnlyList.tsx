import { plural, shortRefs } from '@agentdash/core/present';
import type { TelemetrySummaryDto } from '../data/types';
import { fmtCost, fmtDate, fmtDuration, fmtNumber, knownTimeIso } from '../ui/format';
import { sessionHref } from '../ui/router';
import { SourceBadge } from './SourceBadge';
import { useTelemetryOnly } from './use-telemetry';

const onlyTitle = (client: string) =>
  `No transcript of this session on this machine: what ${client}'s own telemetry (OpenTelemetry) reported`;

/** The tools a session called, most used first, with their failures: `Bash ×3 (1 failed) · Read ×2`. */
export function toolsLine(tools: TelemetrySummaryDto['tools']): string {
  return tools.map((t) => `${t.name || '?'} ×${t.calls}${t.failed > 0 ? ` (${t.failed} failed)` : ''}`).join(' · ');
}

/** What telemetry holds of one session: prompts, API calls, tokens, cost, tool calls with names, measured times. */
export function TelemetrySummaryLine({ s, times = true }: { s: TelemetrySummaryDto; times?: boolean }) {
  return (
    <>
      <span>{plural(s.prompts, 'prompt')}</span>
      <span>
        {plural(s.apiRequests, 'API call')}
        {s.apiErrors > 0 && <span className="err-text"> + {plural(s.apiErrors, 'error')}</span>}
      </span>
      <span title="Input, output, cache read and cache write tokens">
        tokens <b>{fmtNumber(s.inputTokens)}</b> in · <b>{fmtNumber(s.outputTokens)}</b> out ·{' '}
        <b>{fmtNumber(s.cacheReadTokens)}</b> cache read · <b>{fmtNumber(s.cacheCreationTokens)}</b> cache write
      </span>
      {s.costReported && (
        <span title="The client's own cost_usd">
          cost <b>{fmtCost(s.costUsd)}</b>
        </span>
      )}
      {times && (
        <span>
          model <b>{fmtDuration(s.modelMs)}</b> <SourceBadge source="measured" />
        </span>
      )}
      <span>
        {plural(s.toolCalls, 'tool call')}
        {s.failedToolCalls > 0 && <span className="err-text"> ({s.failedToolCalls} failed)</span>}
        {times && (
          <>
            , tools <b>{fmtDuration(s.toolMs)}</b> <SourceBadge source="measured" />
          </>
        )}
      </span>
      {s.tools.length > 0 && (
        <span className="tel-tools" data-testid="telemetry-tools">
          {toolsLine(s.tools)}
        </span>
      )}
    </>
  );
}

/** Sessions known only from telemetry, above the list (live: one shows as soon as its first events are stored). */
export function TelemetryOnlyList({ hidden }: { hidden: boolean }) {
  const sessions = useTelemetryOnly();
  if (hidden || sessions.length === 0) return null;
  const short = shortRefs(sessions.map((s) => s.sessionId));
  return (
    <section className="tel-only" data-testid="telemetry-only">
      <h2>
        Known only from telemetry <span className="dim">({sessions.length})</span>
      </h2>
      {sessions.map((s) => (
        <div key={s.sessionId} className="tel-only-row" data-testid="telemetry-only-row" data-session={s.sessionId}>
          <span className="badge accent" title={onlyTitle(s.client)}>
            telemetry only
          </span>
          <span className="dim" data-testid="telemetry-client">
            {s.client}
          </span>
          <a className="mono" href={sessionHref(s.sessionId)} title={s.sessionId}>
            {short.get(s.sessionId)}
          </a>
          <span className="dim" data-testid="telemetry-started">
            {fmtDate(knownTimeIso(s.firstMs))}
          </span>
          <TelemetrySummaryLine s={s} />
        </div>
      ))}
    </section>
  );
}
