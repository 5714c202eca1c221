import { snippetParts } from '../../ui/Snippet';

/**
 * What a search hit opens its session to find (find-in-session reads text, not search syntax): the query's words
 * without the syntax (a phrase's quotes, a prefix's `*`) where the hit's snippet holds them so, else the first part
 * of the snippet the search marked, else those words. `"npm test"` finds `npm test`, `quor*` finds `quor`; a query
 * whose words stand apart in the text finds the first word the search matched.
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
  return parts.find((p) => p.hit && p.t.trim() !== '')?.t.trim() ?? words;
}
