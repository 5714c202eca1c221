import type { Virtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
import type { EventDto } from '../../data/types';
import { EventView } from '../../timeline/EventView';

/** The virtualized main timeline; `rows` maps each row to its event index (all events, or the errors only). */
export function SessionTimeline({
  virtualizer,
  scrollRef,
  onScroll,
  rowIndex,
  eventAt,
  cursor,
  empty,
}: {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  onScroll: () => void;
  rowIndex: (row: number) => number;
  eventAt: (index: number) => EventDto | undefined;
  cursor: number;
  empty: React.ReactNode;
}) {
  return (
    <div className="timeline-scroll" ref={scrollRef} onScroll={onScroll} data-testid="timeline-scroll">
      <div className="timeline" data-testid="timeline">
        {empty}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const index = rowIndex(v.index);
            const event = eventAt(index);
            const previous = index > 0 && rowIndex(v.index - 1) === index - 1 ? eventAt(index - 1) : undefined;
            return (
              <div
                key={v.key}
                data-index={v.index}
                data-event-index={index}
                ref={virtualizer.measureElement}
                className={v.index === cursor ? 'ev-row ev-cursor' : 'ev-row'}
                data-testid="event-row"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                {event ? <EventView event={event} previous={previous} /> : <div className="ev-placeholder" />}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
