/** What the dashboard shows of the first index build: pure, so it is tested without a browser. */
import type { IndexStatus } from '../data/types';
import { fmtBytes, fmtDuration, fmtNumber } from './format';

interface IndexProgressView {
  /** What is building the index: this server's first read, or another AgentDash process (`--rebuild`). */
  readonly heading: string;
  /** What the pages show meanwhile. */
  readonly meanwhile: string;
  /** 0–1, by bytes (a huge file weighs what it costs), else by files. */
  readonly share: number;
  /** e.g. `1,204 of 4,726 files` or `Looking for transcripts…`. */
  readonly count: string;
  /** e.g. `120.4 MB of 512.0 MB`; '' until sizes are known. */
  readonly bytes: string;
  /** e.g. `about 12 s left`; '' until it can be told. */
  readonly left: string;
}

export function indexProgressView(status: IndexStatus, now: number): IndexProgressView {
  const share =
    status.bytesTotal > 0
      ? status.bytesDone / status.bytesTotal
      : status.filesTotal > 0
        ? status.filesDone / status.filesTotal
        : 0;
  const elapsed = now - Date.parse(status.startedAt);
  const canTell = status.bytesDone > 0 && status.bytesDone < status.bytesTotal && elapsed >= 1000;
  const leftMs = canTell ? ((status.bytesTotal - status.bytesDone) * elapsed) / status.bytesDone : undefined;
  return {
    heading: status.elsewhere ? 'Another AgentDash process is rebuilding the index' : 'Indexing your transcripts',
    meanwhile: status.elsewhere
      ? 'Pages show what it has read so far, and fill in as it goes.'
      : 'Sessions appear as they are read, newest first.',
    share: Math.max(0, Math.min(1, share)),
    count:
      status.filesTotal === 0
        ? 'Looking for transcripts…'
        : `${fmtNumber(status.filesDone)} of ${fmtNumber(status.filesTotal)} files`,
    bytes: status.bytesTotal > 0 ? `${fmtBytes(status.bytesDone)} of ${fmtBytes(status.bytesTotal)}` : '',
    left: leftMs === undefined ? '' : `about ${fmtDuration(leftMs)} left`,
  };
}
