import { useEffect, useState } from 'react';
import { api } from '../data/client';
import type { FolderWithoutTranscripts } from '../data/types';

/** How often, and how many times, the health answer is asked again while the folders are not looked at yet. */
const RETRY_MS = 1000;
const TRIES = 30;

/**
 * Says which folder named to `serve` holds no agent's transcript, in the terminal's words (`HealthResponse
 * .noTranscripts`): else an empty list reads as an agent's home with nothing in it yet. The server knows once its
 * first index build is over: until then the answer is asked again.
 */
export function NoTranscriptsNotice() {
  const [folders, setFolders] = useState<readonly FolderWithoutTranscripts[]>([]);
  useEffect(() => {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (left: number) => {
      api
        .health(ctl.signal)
        .then((h) => {
          if (h.noTranscripts !== undefined) setFolders(h.noTranscripts);
          else if (h.mode !== 'team' && left > 1) timer = setTimeout(() => ask(left - 1), RETRY_MS);
        })
        .catch(() => undefined);
    };
    ask(TRIES);
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, []);
  return <NoTranscriptsText folders={folders} />;
}

/** The notice's text, one line a folder (nothing when every folder holds transcripts). */
export function NoTranscriptsText({ folders }: { readonly folders: readonly FolderWithoutTranscripts[] }) {
  if (folders.length === 0) return null;
  return (
    <div className="index-progress" role="note" data-testid="no-transcripts">
      {folders.map((f) => (
        <div key={f.path} className="index-progress-text">
          <strong>No transcripts here</strong>
          <span>{f.message}</span>
        </div>
      ))}
    </div>
  );
}
