/**
 * A call's measured parts on the waterfall. Claude Code's telemetry gives how long a call waited for the person's
 * permission (`claude_code.tool.blocked_on_user`) and how long it ran (`tool_result` `duration_ms`), not when: both
 * are placed from the call on, the wait first, then the run. Their lengths are measured; the transcript's call → result
 * span stays drawn behind them as what AgentDash infers.
 */
import type { MeasuredCallDto, WaterfallBar } from '../../data/types';
import { BAND_RGB } from '../../ui/tool-palette';

export interface MeasuredParts {
  readonly waitStartMs: number;
  readonly waitEndMs: number;
  readonly runStartMs: number;
  readonly runEndMs: number;
}

export type MeasuredCalls = Readonly<Record<string, MeasuredCallDto>>;

export function measuredParts(bar: WaterfallBar, m: MeasuredCallDto): MeasuredParts {
  const waitEndMs = bar.startMs + Math.max(0, m.permissionWaitMs);
  return {
    waitStartMs: bar.startMs,
    waitEndMs,
    runStartMs: waitEndMs,
    runEndMs: waitEndMs + Math.max(0, m.durationMs),
  };
}

/** The calls of `bars` the client measured. */
export function measuredCount(bars: readonly WaterfallBar[], measured: MeasuredCalls | undefined): number {
  return measured ? bars.filter((b) => measured[b.id] !== undefined).length : 0;
}

/** Colour of a permission wait: the "waiting for you" band's, opaque. */
export const WAIT_COLOUR = `rgba(${BAND_RGB.waitingForYou}, 0.95)`;
