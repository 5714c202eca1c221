/** The one-line progress bar `index` (and every command's refresh) draws on a terminal's stderr. */
import type { RefreshProgress } from '@agentdash/index';
import { formatBytes } from './format.js';

/** Time left at the rate so far (bytes per ms since the first byte was read); undefined until it means something. */
export function timeLeftMs(progress: RefreshProgress, elapsedMs: number): number | undefined {
  if (progress.bytesDone <= 0 || elapsedMs < 500 || progress.bytesDone >= progress.bytesTotal) return undefined;
  return ((progress.bytesTotal - progress.bytesDone) * elapsedMs) / progress.bytesDone;
}

function formatLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s left`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s left` : `${Math.floor(m / 60)}h ${m % 60}m left`;
}

/**
 * `indexing [#####.....] 12/40 files · 3.1 MiB of 9.0 MiB · 4s left`: the bar follows bytes (a huge file
 * weighs what it costs), the count follows files.
 */
export function renderProgressBar(progress: RefreshProgress, elapsedMs: number, width = 30): string {
  const share =
    progress.bytesTotal > 0
      ? progress.bytesDone / progress.bytesTotal
      : progress.total > 0
        ? progress.done / progress.total
        : 1;
  const filled = Math.max(0, Math.min(width, Math.round(share * width)));
  const left = timeLeftMs(progress, elapsedMs);
  return (
    `indexing [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress.done}/${progress.total} files` +
    ` · ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}` +
    (left === undefined ? '' : ` · ${formatLeft(left)}`)
  );
}
