import type { MeasuredCallDto, WaterfallResponse } from '../../data/types';
import { SourceBadge } from '../../telemetry/SourceBadge';
import { fmtDuration } from '../../ui/format';
import type { Hit } from '../../ui/waterfall-geometry';
import { toolColour } from '../../ui/waterfall-geometry';

/** What the colours mean: model time, waiting for the person, errors, then each tool (the first 16). */
export function WaterfallLegend({ data }: { readonly data: WaterfallResponse | undefined }) {
  const tools = [...new Set(data?.lanes.flatMap((l) => l.calls.map((c) => c.tool)) ?? [])].sort();
  return (
    <div className="wf-legend">
      <span>
        <i style={{ background: 'rgba(139, 155, 255, 0.8)', height: 3 }} />
        model
      </span>
      <span>
        <i style={{ background: 'rgba(79, 193, 166, 0.35)' }} />
        waiting for you
      </span>
      <span>
        <i style={{ background: 'transparent', outline: '2px solid #ff6b7a' }} />
        error
      </span>
      {tools.slice(0, 16).map((t) => (
        <span key={t}>
          <i style={{ background: toolColour(t) }} />
          {t}
        </span>
      ))}
    </div>
  );
}

/**
 * The call under the pointer: tool, outcome, duration and thread. With telemetry, the duration is the client's
 * measured run where it has one (the bar still spans call to result), and says which it is.
 */
export function WaterfallTip({
  hover,
  measured,
}: {
  readonly hover: Hit;
  readonly measured?: Readonly<Record<string, MeasuredCallDto>> | undefined;
}) {
  const m = measured?.[hover.bar.id];
  return (
    <div className="wf-tip" data-testid="waterfall-tip">
      <b>{hover.bar.tool}</b> · {hover.bar.status} ·{' '}
      {fmtDuration(m ? m.durationMs : hover.bar.endMs - hover.bar.startMs)}
      {measured !== undefined && <SourceBadge source={m ? 'measured' : 'inferred'} compact />}
      {hover.bar.open ? ' (no result)' : ''} · {hover.lane.key === 'main' ? 'main thread' : hover.lane.label}
    </div>
  );
}
