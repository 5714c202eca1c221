import { plural } from '@agentdash/core/present';
import { SourceLegend } from '../telemetry/SourceBadge';
import { useSessionTelemetry } from '../telemetry/use-telemetry';
import { fmtDuration } from '../ui/format';
import { sessionHref } from '../ui/router';
import { SessionCrumbs } from '../ui/SessionCrumbs';
import { keyHelp } from './waterfall/keys';
import { measuredCount } from './waterfall/measured';
import { useWaterfall, useWaterfallCanvas } from './waterfall/use-waterfall';
import { BandTip, WaterfallLegend, WaterfallTip } from './waterfall/WaterfallParts';

/** A session's calls on a time line, one lane per thread (`waterfall/` holds its data, canvas and drawing). */
export function WaterfallPage({ id }: { id: string }) {
  const wf = useWaterfall(id);
  const telemetry = useSessionTelemetry(id);
  const canvas = useWaterfallCanvas(wf, telemetry?.calls);
  const { data, totalCalls } = wf;
  const measuredCalls = measuredCount(data?.lanes.flatMap((l) => l.calls) ?? [], telemetry?.calls);
  if (wf.error) {
    return (
      <div className="page">
        <SessionCrumbs id={id} page="Waterfall" />
        <div className="err-msg">Could not load the waterfall: {wf.error}</div>
      </div>
    );
  }
  return (
    <div className="page" data-testid="waterfall-page">
      <div className="page-head">
        <div>
          <SessionCrumbs id={id} page="Waterfall" />
          <h1 className="page-title">Waterfall</h1>
          <div className="page-sub">
            {data
              ? `${plural(data.lanes.length, 'thread')} · ${plural(totalCalls, 'call')} · ${fmtDuration(data.endMs - data.startMs)}`
              : 'Loading…'}{' '}
            · scroll to zoom, drag to pan, click a call to open it in the timeline (keys: arrows, Enter)
          </div>
          {data?.ownFromMs !== undefined && (
            <div className="page-sub" data-testid="wf-own-from">
              Drawn from this session's own records: the conversation it copied from an earlier session (resumed or
              forked) is not drawn, as its time does not count it; the timeline shows it.
            </div>
          )}
        </div>
        <div className="row">
          <button type="button" className="btn small" onClick={() => wf.zoom(0.5)} data-testid="wf-zoom-in">
            Zoom in
          </button>
          <button type="button" className="btn small" onClick={() => wf.zoom(2)}>
            Zoom out
          </button>
          <button type="button" className="btn small" onClick={wf.reset}>
            Reset
          </button>
          <a className="btn small" href={sessionHref(id)}>
            Timeline
          </a>
        </div>
      </div>
      <WaterfallLegend data={data} measured={telemetry ? measuredCalls : undefined} />
      {telemetry && <SourceLegend />}
      <div className="wf-box">
        {/* An application: a screen reader in browse mode passes it the arrows, Home and End it moves by. */}
        {/* biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: a keyboard widget drawn on a canvas */}
        <canvas
          ref={canvas.canvasRef}
          className="wf-canvas"
          role="application"
          aria-roledescription="waterfall"
          aria-describedby="wf-keys"
          tabIndex={0}
          data-testid="waterfall-canvas"
          data-calls={totalCalls}
          data-open={wf.openCalls}
          data-lanes={data?.lanes.length ?? 0}
          data-measured={measuredCalls}
          style={{ height: wf.height, cursor: canvas.cursor }}
          {...canvas.handlers}
        />
        {canvas.hover && <WaterfallTip hover={canvas.hover} measured={telemetry?.calls} />}
        {canvas.band && <BandTip band={canvas.band} />}
        <span id="wf-keys" className="sr-only">
          {keyHelp(totalCalls)}
        </span>
        <div className="sr-only" aria-live="polite" data-testid="wf-keyed">
          {canvas.said}
        </div>
      </div>
    </div>
  );
}
