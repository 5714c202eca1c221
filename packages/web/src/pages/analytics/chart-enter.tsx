import { type ComponentProps, type KeyboardEvent, type ReactNode, useRef } from 'react';
import { BarChart, ResponsiveContainer, useActiveTooltipDataPoints } from 'recharts';

type Slot = { current: unknown };

/**
 * The row the chart's tooltip shows, kept in `into`: recharts moves its tooltip with the arrow keys once the chart
 * has the focus, and says nothing of it outside the chart. Rendered inside the chart (it reads the chart's state).
 */
function ActiveRow({ into }: { into: Slot }) {
  const points = useActiveTooltipDataPoints();
  into.current = points?.[0];
  return null;
}

/**
 * A bar chart that opens on Enter or Space what a click on the bar its tooltip shows opens: the arrow keys moved the
 * tooltip from bar to bar, and the keyboard could open nothing. `children` is given the slot for its `ActiveRow`.
 */
function EnterOpens<T>({ open, children }: { open: (row: T) => void; children: (active: Slot) => ReactNode }) {
  const active = useRef<unknown>(undefined);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const row = active.current as T | undefined;
    if (row === undefined) return;
    e.preventDefault();
    open(row);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys come from the chart's focused surface within
    <div className="chart-keys" onKeyDown={onKeyDown}>
      {children(active)}
    </div>
  );
}

/**
 * A bar chart of the page's width and `height` whose bars open, on Enter or Space, what a click on them opens
 * (`EnterOpens`, its tooltip's row kept by `ActiveRow`): the frame the analytics charts with drill-downs share.
 */
export function OpenableBarChart<T>({
  open,
  height,
  children,
  ...chart
}: { open: (row: T) => void; height: number; children: ReactNode } & ComponentProps<typeof BarChart>) {
  return (
    <EnterOpens open={open}>
      {(active) => (
        <ResponsiveContainer width="100%" height={height}>
          <BarChart {...chart}>
            <ActiveRow into={active} />
            {children}
          </BarChart>
        </ResponsiveContainer>
      )}
    </EnterOpens>
  );
}
