import { messageOf } from '@agentdash/core/present';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../data/client';
import type { EventDto } from '../data/types';
import { TimelineCtx, useTimeline } from './context';
import { EventView } from './EventView';
import { inferTodosBefore } from './todos-before';

const PAGE = 200;

/**
 * Whether a subagent's first event is the prompt its call gave (the call's block shows it just above): then the
 * timeline says so in one line instead of showing the same text twice. A prompt with images, or any other text,
 * is shown.
 */
export function opensWithCallPrompt(events: readonly EventDto[], callPrompt: string | undefined): boolean {
  const first = events[0];
  return (
    callPrompt !== undefined &&
    first?.kind === 'prompt' &&
    first.images.length === 0 &&
    first.text.trim() === callPrompt.trim()
  );
}

/** A subagent's own timeline, loaded when expanded (and reloaded on live updates). */
export function SubagentTimeline({ agentKey, callPrompt }: { agentKey: string; callPrompt?: string | undefined }) {
  const ctx = useTimeline();
  const { sessionId, liveVersion } = ctx;
  const [events, setEvents] = useState<EventDto[]>([]);
  const [total, setTotal] = useState<number | undefined>();
  const [limit, setLimit] = useState(PAGE);
  const [error, setError] = useState<string | undefined>();
  // the thread's own todo lists, for the updates whose client wrote an empty list before
  const threadCtx = useMemo(() => ({ ...ctx, todosBefore: inferTodosBefore(events) }), [ctx, events]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: liveVersion triggers a reload
  useEffect(() => {
    let cancelled = false;
    // The server cuts a page by size too: ask on from where it stopped until `limit` events (or all) are here.
    const load = async () => {
      const got: EventDto[] = [];
      for (;;) {
        const page = await api.events(sessionId, got.length, limit - got.length, agentKey);
        got.push(...page.events);
        if (cancelled) return;
        if (page.events.length === 0 || got.length >= Math.min(limit, page.total)) {
          setEvents(got);
          setTotal(page.total);
          return;
        }
      }
    };
    load().catch((e: unknown) => !cancelled && setError(messageOf(e)));
    return () => {
      cancelled = true;
    };
  }, [sessionId, agentKey, limit, liveVersion]);

  if (error) return <div className="err-msg">{error}</div>;
  if (total === undefined) return <div className="ev-placeholder" />;
  if (total === 0) return <div className="dim">No events.</div>;
  const skipFirst = opensWithCallPrompt(events, callPrompt);
  return (
    <TimelineCtx.Provider value={threadCtx}>
      <div>
        {skipFirst && (
          <div className="dim subagent-same-prompt" data-testid="subagent-same-prompt">
            Started with the prompt shown above.
          </div>
        )}
        {events.map((e, i) =>
          skipFirst && i === 0 ? null : <EventView key={e.index} event={e} previous={events[i - 1]} />,
        )}
        {total > events.length && (
          <button type="button" className="btn" onClick={() => setLimit((l) => l + PAGE)}>
            Show {Math.min(PAGE, total - events.length)} more of {total - events.length}
          </button>
        )}
      </div>
    </TimelineCtx.Provider>
  );
}
