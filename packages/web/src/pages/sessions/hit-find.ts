import { snippetParts } from '../../ui/Snippet';

/**
 * What a search hit opens its session to find (find-in-session reads text, not search syntax): the query's words
 * without the syntax (a phrase's quotes, a prefix's `*`) where the hit's snippet holds them so, else the first part
 * of the snippet the search marked (its longest run of marked words), else those words. `"npm test"` finds `npm
 * test`, `quor*` finds `quor`; a query whose words stand apart in the text finds the longest of them the search marked.
 */
export function hitFindText(query: string, snippet: string | undefined): string {
  const words = query.replace(/["*]/g, ' ').replace(/\s+/g, ' ').trim();
  if (snippet === undefined) return words;
  const parts = snippetParts(snippet);
  const plain = parts
    .map((p) => p.t)
    .join('')
    .replace(/\s+/g, ' ');
  if (plain.toLowerCase().includes(words.toLowerCase())) return words;
  return longestMarkedRun(parts) ?? words;
}

/**
 * The longest run of marked words next to each other in a snippet (only spaces between them), the first of equal
 * ones: a snippet cut inside the phrase searched for ("padding text for a large" of "… a large output") finds that
 * much of it, not its one word the cut left apart ("output", found all over the session).
 */
function longestMarkedRun(parts: readonly { readonly t: string; readonly hit: boolean }[]): string | undefined {
  let best: string | undefined;
  let run = '';
  let gap = '';
  const close = () => {
    const text = run.trim();
    if (text !== '' && (best === undefined || text.length > best.length)) best = text;
    run = '';
    gap = '';
  };
  for (const part of parts) {
    if (part.hit) {
      run += gap + part.t;
      gap = '';
    } else if (run !== '' && part.t.trim() === '') gap += part.t;
    else close();
  }
  close();
  return best;
}
