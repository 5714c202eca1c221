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
