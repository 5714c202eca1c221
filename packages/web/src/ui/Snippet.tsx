/** An FTS snippet's parts: its text, the parts the search matched (between \u0001 and \u0002 markers) marked. */
export function snippetParts(text: string): { readonly t: string; readonly hit: boolean }[] {
  const out: { t: string; hit: boolean }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const a = rest.indexOf('\u0001');
    if (a < 0) {
      out.push({ t: rest, hit: false });
      break;
    }
    if (a > 0) out.push({ t: rest.slice(0, a), hit: false });
    const b = rest.indexOf('\u0002', a + 1);
    const end = b < 0 ? rest.length : b;
    out.push({ t: rest.slice(a + 1, end), hit: true });
    rest = b < 0 ? '' : rest.slice(b + 1);
  }
  return out;
}

/** An FTS snippet with \u0001…\u0002 markers: text stays text, marked parts become <mark>. */
export function Snippet({ text }: { text: string }) {
  return (
    <div className="snippet" data-testid="search-snippet">
      {snippetParts(text).map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: static split of one string
        p.hit ? <mark key={i}>{p.t}</mark> : <span key={i}>{p.t}</span>,
      )}
    </div>
  );
}
