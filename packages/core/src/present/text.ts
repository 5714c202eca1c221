/**
 * Short forms of paths and ids for tables and headers.
 * @module
 */

/** Last two path segments, enough to recognise a project: `…/work/agentdash`. */
export function shortPath(path: string | null | undefined): string {
  if (!path) return '—';
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

/** The last path segment. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** The first 8 characters of an id. */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/**
 * The shortest prefix of each id, at least `min` characters, that no other of `ids` starts with (as git abbreviates
 * commits): Codex's ids are time-ordered (UUIDv7) and share their first 8 characters within a day.
 */
export function uniquePrefixes(ids: readonly string[], min = 8): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const common = (a: string | undefined, b: string | undefined) => {
    if (a === undefined || b === undefined) return 0;
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  return new Map(
    sorted.map((id, i) => {
      const shared = Math.max(common(id, sorted[i - 1]), common(id, sorted[i + 1]));
      return [id, id.slice(0, Math.min(id.length, Math.max(min, shared + 1)))];
    }),
  );
}

/** A model name without the `claude-` prefix and date suffix: `opus-4-1`. */
export function shortModel(model: string): string {
  return model.replace(/^claude-/, '').replace(/-\d{8}$/, '');
}

/**
 * Short names of models shown together (a chart's legend): `shortModel`, unless two models would get the same one
 * (`claude-sonnet-4` and `claude-sonnet-4-20250514`): those keep their date.
 */
export function shortModels(models: readonly string[]): Map<string, string> {
  const counts = new Map<string, number>();
  for (const m of models) counts.set(shortModel(m), (counts.get(shortModel(m)) ?? 0) + 1);
  return new Map(
    models.map((m) => [m, (counts.get(shortModel(m)) ?? 0) > 1 ? m.replace(/^claude-/, '') : shortModel(m)]),
  );
}
