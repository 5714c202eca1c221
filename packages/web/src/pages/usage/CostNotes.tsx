import { modelList, unrecordedNotes } from '@agentdash/core/present';
import type { UsageResponse } from '../../data/types';

/**
 * What the costs leave out (models without a price, responses without their input or final output count): a
 * disclosure on the line under the totals that names the price table, its summary one line. Above the figures, three
 * notes arriving with the data pushed every card 213 px down (a layout shift a review measured at 0.79) and filled a
 * phone's first screen; as boxes under the cards, they still pushed the chart down.
 */
export function CostNotes({ totals }: { readonly totals: UsageResponse['totals'] | undefined }) {
  if (totals === undefined) return null;
  const notes = [
    ...(totals.unpricedModels.length > 0
      ? [
          {
            kind: 'unpriced',
            text: (
              <>
                No price for {modelList(totals.unpricedModels)}: their cost is unknown and not in the sums (tokens are).
                Start the server with <span className="mono">--prices FILE</span> to add prices.
              </>
            ),
          },
        ]
      : []),
    ...unrecordedNotes(totals).map((n) => ({ kind: `${n.kind}-unrecorded`, text: <>{n.text}.</> })),
  ];
  if (notes.length === 0) return null;
  return (
    <details className="cost-notes" data-testid="cost-notes">
      <summary>
        The costs are lower bounds ({notes.length} {notes.length === 1 ? 'note' : 'notes'} on what they leave out)
      </summary>
      <div className="warn-msg">
        {notes.map((n) => (
          <div key={n.kind} data-testid={`${n.kind}-warning`}>
            {n.text}
          </div>
        ))}
      </div>
    </details>
  );
}
