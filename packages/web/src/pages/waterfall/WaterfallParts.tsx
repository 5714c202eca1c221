import { IDLE_THRESHOLD_MS } from '@agentdash/core/time';
import type { MeasuredCallDto, WaterfallResponse } from '../../data/types';
import { SourceBadge } from '../../telemetry/SourceBadge';
import { fmtDuration } from '../../ui/format';
import { cssColor, useThemeVersion } from '../../ui/theme';
import { BAND_RGB, chartTools, markBackground, paletteFor, toolStyles } from '../../ui/tool-palette';
import type { BandHit, Hit } from '../../ui/waterfall-geometry';
import { barInk } from './bar-ink';
import { WAIT_COLOUR } from './measured';

/** What the time partition counts a stretch no record covers as, in words. */
const COUNTED_AS: Record<NonNullable<BandHit['countedAs']>, string> = {
  tool: "tool time: the client's own work after a tool's result (hooks, attachments)",
  user: 'your time: after an answer, or a turn that went no further (a slash command, a compaction, reading)',
  idle: `idle: over ${fmtDuration(IDLE_THRESHOLD_MS)}`,
};

/** What the time under the pointer was, where no call is: its band, how long, and how the totals count it. */
export function BandTip({ band }: { readonly band: BandHit }) {
  const span = fmtDuration(band.endMs - band.startMs);
  const what =
    band.kind === 'unrecorded'
      ? `no record for ${span}, counted as ${COUNTED_AS[band.countedAs ?? 'user']}`
      : band.kind === 'idle'
        ? `idle for ${span} (a wait over ${fmtDuration(IDLE_THRESHOLD_MS)})`
        : band.kind === 'waiting'
          ? `waiting for you for ${span}`
          : `the model for ${span}`;
  return (
    <div className="wf-tip" data-testid="waterfall-band-tip" data-kind={band.kind}>
      {what} · {band.lane.key === 'main' ? 'main thread' : band.lane.label}
    </div>
  );
}

/**
 * What the colours mean: model time, waiting for the person, errors (expected ones apart), then each tool (striped
 * past the palette's first round, as its bars are); with telemetry, how a measured call is drawn.
 */
export function WaterfallLegend({
  data,
  measured,
}: {
  readonly data: WaterfallResponse | undefined;
  /** Calls drawn as measured (undefined: the session has no telemetry). */
  readonly measured?: number | undefined;
}) {
  useThemeVersion();
  const tools = chartTools(data?.lanes ?? []);
  const backdrop = cssColor('--wf-bg', '#141821');
  const styles = toolStyles(tools, paletteFor(backdrop));
  const inks = [cssColor('--bg', '#0d0f14'), cssColor('--text', '#e6e9f0')];
  const muted = cssColor('--muted', '#737c91');
  const swatch = (tool: string) => {
    const style = styles.get(tool);
    return style && markBackground(style, barInk({ fill: style.colour, alpha: 1, backdrop }, inks));
  };
  return (
    <div className="wf-legend">
      <span>
        <i style={{ background: `rgba(${BAND_RGB.model}, 0.8)`, height: 3 }} />
        model
      </span>
      <span>
        <i style={{ background: `rgba(${BAND_RGB.waitingForYou}, 0.35)` }} />
        waiting for you
      </span>
      {data?.lanes.some((l) => l.unrecorded.length > 0) && (
        <span data-testid="wf-unrecorded-legend">
          {/* stripes in the muted ink, as the canvas draws them (draw.ts) and a tool's mark is drawn */}
          <i style={{ background: markBackground({ colour: 'transparent', mark: 'stripes' }, muted) }} />
          no record (counted as the time around it)
        </span>
      )}
      {data?.lanes.some((l) => l.idle.length > 0) && (
        <span data-testid="wf-idle-legend">
          <i style={{ background: 'var(--tb-idle)', opacity: 0.7 }} />
          idle (a wait over {fmtDuration(IDLE_THRESHOLD_MS)})
        </span>
      )}
      <span>
        <i style={{ background: 'transparent', outline: '2px solid #ff6b7a' }} />
        error
      </span>
      {data?.lanes.some((l) => l.calls.some((c) => c.expected)) && (
        <span>
          <i style={{ background: 'transparent', outline: '2px solid var(--exp)' }} />
          expected error
        </span>
      )}
      {measured !== undefined && (
        <span data-testid="wf-measured-legend" data-calls={measured}>
          <i style={{ background: WAIT_COLOUR, height: 6 }} />
          waiting for permission (measured) ·
          <i style={{ background: 'var(--text-2)', marginLeft: 5 }} />
          ran (measured) ·
          <i style={{ background: 'transparent', outline: '1px dashed var(--text-2)', marginLeft: 5 }} />
          call → result (inferred) · {measured} call{measured === 1 ? '' : 's'} measured
        </span>
      )}
      {tools.map((t) => (
        <span key={t} data-testid="wf-tool-legend" data-mark={styles.get(t)?.mark}>
          <i style={{ background: swatch(t) }} />
          {t}
        </span>
      ))}
    </div>
  );
}

/**
 * The call under the pointer: tool, outcome, duration and thread. With telemetry, the client's measured run and
 * permission wait where it has them, beside the call → result span AgentDash infers, each saying which it is.
 */
export function WaterfallTip({
  hover,
  measured,
}: {
  readonly hover: Hit;
  readonly measured?: Readonly<Record<string, MeasuredCallDto>> | undefined;
}) {
  const m = measured?.[hover.bar.id];
  const span = hover.bar.endMs - hover.bar.startMs;
  return (
    <div className="wf-tip" data-testid="waterfall-tip">
      <b>{hover.bar.tool}</b> · {hover.bar.expected ? 'expected error' : hover.bar.status} ·{' '}
      {m ? (
        <>
          <span data-testid="wf-tip-run">ran {fmtDuration(m.durationMs)}</span>{' '}
          <SourceBadge source="measured" compact />
          {m.permissionWaitMs > 0 && (
            <>
              {' '}
              · <span data-testid="wf-tip-wait">waited {fmtDuration(m.permissionWaitMs)} for permission</span>{' '}
              <SourceBadge source="measured" compact />
            </>
          )}{' '}
          · <span data-testid="wf-tip-span">call → result {fmtDuration(span)}</span>{' '}
          <SourceBadge source="inferred" compact />
        </>
      ) : (
        <>
          {fmtDuration(span)}
          {measured !== undefined && <SourceBadge source="inferred" compact />}
        </>
      )}
      {hover.bar.open ? ' (no result)' : ''} · {hover.lane.key === 'main' ? 'main thread' : hover.lane.label}
    </div>
  );
}
